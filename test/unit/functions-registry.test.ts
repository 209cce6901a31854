import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { isInngestFunction, type InngestFunction } from "inngest";
import { functions } from "@/inngest/functions";

/**
 * The registry (inngest/functions/index.ts) is the list both drivers run: a function defined
 * beside it but not listed would never run, and nothing else would say so. It stays a list
 * written out (it reads as the table of background work, and neither Node nor Next's
 * bundler imports a whole folder), so this test holds it against every function the
 * folder defines.
 */
const folder = path.join(process.cwd(), "inngest", "functions");

const definitionFiles = () =>
  fs
    .readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && file !== "index.ts")
    .sort();

async function definedFunctions() {
  const defined: { where: string; fn: InngestFunction.Any }[] = [];
  for (const file of definitionFiles()) {
    const exported: Record<string, unknown> = await import(path.join(folder, file));
    for (const [name, value] of Object.entries(exported)) {
      if (isInngestFunction(value)) defined.push({ where: `inngest/functions/${file}: ${name}`, fn: value });
    }
  }
  return defined;
}

test("the functions registry lists every function defined under inngest/functions, once", async () => {
  const defined = await definedFunctions();
  assert.ok(defined.length > 0, "no function found under inngest/functions");
  for (const { where, fn } of defined) {
    assert.ok(functions.includes(fn), `${where} (id "${fn.id()}") is missing from \`functions\` in inngest/functions/index.ts`);
  }
  const ids = functions.map((fn) => fn.id());
  assert.deepEqual(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    [],
    "the registry lists a function id twice",
  );
  assert.equal(functions.length, defined.length, "the registry lists a function that no file under inngest/functions exports");
});
