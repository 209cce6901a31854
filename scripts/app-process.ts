import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { spawnTied } from "@/lib/tied-process";

/**
 * Runs `scripts/start.ts` as a child process (as `npm start` would) and resolves
 * once it listens. Its output goes to DATA_DIR/app.log; stderr is echoed.
 */
export interface AppProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export function startAppProcess(env: NodeJS.ProcessEnv): Promise<AppProcess> {
  return new Promise((resolve, reject) => {
    // Tied: if whatever started it dies (a test run cut short), the app stops in order too
    // instead of serving on, orphaned, with nobody reading its output.
    const child = spawnTied(process.execPath, ["--import", "tsx", "scripts/start.ts"], { env, stdio: ["ignore", "pipe", "pipe"] }, "SIGTERM");
    const log = fs.createWriteStream(path.join(env.DATA_DIR!, "app.log"));
    let seen = "";
    const onData = (chunk: Buffer) => {
      log.write(chunk);
      seen += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (!match) return;
      child.stdout!.off("data", onData);
      child.stdout!.on("data", (c) => log.write(c));
      child.off("exit", onEarlyExit);
      const stop = async () => {
        if (child.exitCode !== null) return;
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      };
      resolve({ child, url: match[1], stop });
    };
    const onEarlyExit = (code: number | null) => reject(new Error(`app exited with ${code} before listening:\n${seen}`));
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (c) => {
      log.write(c);
      process.stderr.write(c);
    });
    child.on("exit", onEarlyExit);
  });
}
