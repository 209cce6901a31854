import { spawn } from "node:child_process";

/**
 * Runs a bench helper script (a baseline server, a test S3) in its own process, so
 * it does not share the load generator's event loop; resolves once it prints
 * "listening on <url>".
 */
export function startListening(script: string, args: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<{ url: string; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { env, stdio: ["ignore", "pipe", "inherit"] });
    child.stdout!.on("data", (c: Buffer) => {
      const url = /listening on (\S+)/.exec(c.toString())?.[1];
      if (url) resolve({ url, stop: () => child.kill() });
    });
    child.on("exit", (code) => reject(new Error(`${script} exited ${code}`)));
  });
}
