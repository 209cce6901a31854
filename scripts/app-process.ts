import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { spawnTied } from "@/lib/tied-process";

/**
 * Runs `scripts/start.ts` as a child process (as `npm start` would), or another server program
 * (`scripts/edge.ts`), and resolves once it listens. Its output goes to DATA_DIR/app.log (or the
 * log named); stderr is echoed.
 */
export interface AppProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Long enough for an orderly stop on a loaded machine (children first, their last reports, the database). */
const STOP_WITHIN_MS = 60_000;

export function startAppProcess(env: NodeJS.ProcessEnv, program = { script: "scripts/start.ts", log: "app.log" }): Promise<AppProcess> {
  return new Promise((resolve, reject) => {
    // Tied: if whatever started it dies (a test run cut short), the app stops in order too
    // instead of serving on, orphaned, with nobody reading its output.
    const child = spawnTied(process.execPath, ["--import", "tsx", program.script], { env, stdio: ["ignore", "pipe", "pipe"] }, "SIGTERM");
    // In DATA_DIR, which is nobody else's (lib/data-dir.ts): the log too.
    const log = fs.createWriteStream(path.join(env.DATA_DIR!, program.log), { mode: 0o600 });
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
        // Gone already (an exit code, or killed by a signal: then exitCode stays null).
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        // One that does not stop is a defect to report, not a test run to hang.
        let timer: NodeJS.Timeout | undefined;
        const stuck = new Promise<"stuck">((r) => (timer = setTimeout(() => r("stuck"), STOP_WITHIN_MS)));
        const outcome = await Promise.race([exited, stuck]);
        clearTimeout(timer);
        if (outcome === "stuck") {
          child.kill("SIGKILL");
          await exited;
          throw new Error(`${program.script} (pid ${child.pid}) did not stop within ${STOP_WITHIN_MS / 1000} s of SIGTERM: killed`);
        }
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
