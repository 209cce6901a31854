import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { test } from "node:test";

/**
 * A server whose stdout and stderr lost their reader (the program reading them died) goes on
 * serving: before, the launcher spun at full CPU on EPIPE after EPIPE and answered nothing.
 */
const SERVER = `
  const { dropOutputWithoutReader } = require(${JSON.stringify(path.resolve("lib/process-output.ts"))});
  dropOutputWithoutReader();
  const server = require("node:http").createServer((req, res) => {
    console.error("a request, logged to a pipe nobody reads");
    res.end("ok");
  });
  server.listen(0, "127.0.0.1", () => process.send(server.address().port));
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
`;

test("a process whose output has no reader any more goes on serving, and stops when asked", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", "-e", SERVER], { stdio: ["ignore", "pipe", "pipe", "ipc"] });
  const port = await new Promise<number>((resolve) => child.once("message", (m) => resolve(Number(m))));
  child.stdout!.destroy();
  child.stderr!.destroy();
  for (let i = 0; i < 20; i++) {
    const res = await fetch(`http://127.0.0.1:${port}/`);
    assert.equal(await res.text(), "ok", `request ${i}`);
  }
  assert.equal(child.exitCode, null, "still running");
  child.kill("SIGTERM");
  const code = await new Promise((resolve) => child.once("exit", resolve));
  assert.equal(code, 0);
});
