import { spawn } from "node:child_process";

/**
 * Runs a scenario (a script under test/support) in a network namespace of its own with loopback
 * alone (`unshare --net`, then `ip link set lo up`): ICE finds nothing else, and nothing leaves.
 * The scenario prints `RESULT <json>` once; that is returned, with the output to show on failure.
 * Throws, with the output's end, when it reported nothing.
 */
// biome-ignore lint/suspicious/noExplicitAny: what the scenario saw, as JSON, read by the test's assertions
export async function scenarioInNamespace(script: string): Promise<{ seen: any; out: string }> {
  const child = spawn("unshare", ["--net", "--", "sh", "-c", `ip link set lo up && exec "${process.execPath}" --import tsx ${script}`], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (out += c));
  await new Promise((resolve) => child.once("exit", resolve));
  const line = out.split("\n").find((l) => l.startsWith("RESULT "));
  if (!line) throw new Error(`the scenario ${script} reported nothing:\n${out.slice(-3000)}`);
  // What it printed besides its result (the apps' errors): the result alone would fill a short tail.
  return { seen: JSON.parse(line.slice("RESULT ".length)), out: out.replace(line, "").slice(-6000) };
}
