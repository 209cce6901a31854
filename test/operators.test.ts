import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { operations } from "@/lib/api/operations";
import { cli, makeAdmin } from "./support/cli";
import { BASE, newAccount, raw } from "./support/client";

/** The media nodes (the deployment's machines) are for operators: accounts the CLI gave the admin role. */

const nodesPage = (cookie: string) => raw(BASE, "GET", "/nodes", { cookie }).then((r) => r.status);

describe("operators", () => {
  test("an account sees the media nodes (API and page) only while it has the admin role", async () => {
    const api = await newAccount();
    const refused = await api.call(operations.listMediaNodes);
    assert.equal(refused.status, 403);
    assert.match(JSON.stringify(refused.body), /admin role/);
    assert.equal(await nodesPage(api.cookie), 404);

    const { stdout } = await makeAdmin(api.email);
    assert.match(stdout, /now has the role admin/);
    const listed = await api.call(operations.listMediaNodes);
    assert.equal(listed.status, 200);
    // Healthy, or overloaded while other files load the machine: up, at least.
    assert.ok(
      listed.body.some((n) => n.state !== "lost" && n.rtmpPort === Number(process.env.CASTLINE_RTMP_PORT)),
      "the suite's own media node is listed",
    );
    assert.equal(await nodesPage(api.cookie), 200, "the session already open sees it too");

    await cli(["users", "set-role", "--email", api.email, "--role", "user"]);
    assert.equal((await api.call(operations.listMediaNodes)).status, 403);
    assert.equal(await nodesPage(api.cookie), 404);
  });

  test("set-role refuses an unknown role or account", async () => {
    const api = await newAccount();
    await assert.rejects(cli(["users", "set-role", "--email", api.email, "--role", "root"]), (err: { stderr: string }) => /--role/.test(err.stderr));
    await assert.rejects(cli(["users", "set-role", "--email", "nobody-here@example.com", "--role", "admin"]), (err: { stderr: string }) =>
      /no account/.test(err.stderr),
    );
    assert.equal((await api.call(operations.listMediaNodes)).status, 403);
  });
});
