import assert from "node:assert/strict";
import { test } from "node:test";
import { reloadConfig } from "@/lib/config";
import { hashPassword, unmatchableHash, verifyPassword } from "@/lib/users/password";

const costOf = (hash: string) => Math.log2(Number(hash.split("$")[1]));

test("PASSWORD_HASH_COST sets the scrypt cost of new hashes; a hash made at another cost still verifies", async () => {
  process.env.PASSWORD_HASH_COST = "12";
  reloadConfig();
  const cheap = await hashPassword("correct horse battery");
  assert.equal(costOf(cheap), 12);
  assert.equal(costOf(unmatchableHash()), 12, "an unknown address costs what a known one does");

  process.env.PASSWORD_HASH_COST = "13";
  reloadConfig();
  const dearer = await hashPassword("correct horse battery");
  assert.equal(costOf(dearer), 13);
  assert.equal(await verifyPassword("correct horse battery", cheap), true);
  assert.equal(await verifyPassword("correct horse battery", dearer), true);
  assert.equal(await verifyPassword("correct horse batterY", cheap), false);
  assert.equal(await verifyPassword("anything", unmatchableHash()), false);

  delete process.env.PASSWORD_HASH_COST;
  reloadConfig();
  assert.equal(costOf(unmatchableHash()), 15, "the default");
});

test("a cost outside 12-18 is refused at start", () => {
  process.env.PASSWORD_HASH_COST = "8";
  try {
    assert.throws(() => reloadConfig(), /PASSWORD_HASH_COST/);
  } finally {
    delete process.env.PASSWORD_HASH_COST;
    reloadConfig();
  }
});
