import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";

/**
 * The launcher's child processes (job workers, the media node): each is a
 * script that sends {ready: true, ...} over IPC once it serves, exits when the
 * IPC channel closes (so a kill -9 of the launcher takes it down: serveLauncher),
 * and is started again if it dies while the launcher runs.
 */
export interface Child {
  stop(): Promise<void>;
}

interface ChildOptions {
  name: string;
  script: string;
  env?: Record<string, string>;
  /** Called when the child died unexpectedly, with what it said when ready. */
  onCrash?: (ready: Record<string, unknown>) => Promise<void> | void;
  /** Called with each message the child sends once ready, and the child to answer. */
  onMessage?: (message: unknown, child: ChildProcess) => void;
}

function startOnce(opts: ChildOptions): Promise<{ child: ChildProcess; ready: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, opts.script), [], { execArgv: ["--import", "tsx"], env: { ...process.env, ...opts.env } });
    const onExit = (code: number | null) => reject(new Error(`${opts.name} exited with ${code} while starting`));
    child.once("exit", onExit);
    child.once("message", (message) => {
      const ready = message as Record<string, unknown>;
      if (!ready?.ready) return;
      child.off("exit", onExit);
      if (opts.onMessage) child.on("message", (message) => opts.onMessage!(message, child));
      resolve({ child, ready });
    });
  });
}

export async function superviseChild(opts: ChildOptions): Promise<Child> {
  let stopping = false;
  let current: ChildProcess;
  const watch = (child: ChildProcess, ready: Record<string, unknown>) => {
    current = child;
    child.once("exit", async (code, signal) => {
      if (stopping) return;
      console.error(`${opts.name} exited (${signal ?? code}); starting it again`);
      await Promise.resolve(opts.onCrash?.(ready)).catch((err) => console.error(`${opts.name}: cleaning up failed:`, err));
      setTimeout(
        () =>
          startOnce(opts).then(
            (r) => watch(r.child, r.ready),
            (err) => console.error(err.message),
          ),
        1000,
      );
    });
  };
  const first = await startOnce(opts);
  watch(first.child, first.ready);
  return {
    async stop() {
      stopping = true;
      if (current.exitCode !== null || current.signalCode !== null) return;
      const exited = new Promise((resolve) => current.once("exit", resolve));
      current.kill("SIGTERM");
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), CHILD_STOP_MS)));
      if ((await Promise.race([exited, late])) === "late") {
        console.error(`${opts.name} did not stop within ${CHILD_STOP_MS / 1000} s of SIGTERM: killed`);
        current.kill("SIGKILL");
        await exited;
      }
      clearTimeout(timer);
    },
  };
}

/** How long a child may take to stop in order (a media node ends its broadcasts and reports) before it is killed. */
const CHILD_STOP_MS = 40_000;

/** How long an orphaned child may take to stop in order before it exits anyway. */
const ORPHAN_STOP_MS = 5000;

/**
 * In a child: tells the launcher it is ready, and dies with it. When the IPC channel
 * closes (the launcher is gone, even by kill -9) the child stops in order if it can within
 * a few seconds, and exits regardless: work in flight (a transcode, a delivery) is not
 * finished by an orphan; its lease lapses and another worker takes it up.
 */
export function serveLauncher(ready: Record<string, unknown>, shutdown: () => Promise<void>) {
  process.off("disconnect", exitNow);
  const orphaned = () => {
    setTimeout(() => process.exit(1), ORPHAN_STOP_MS).unref();
    void shutdown();
  };
  if (!process.connected) return orphaned();
  process.on("disconnect", orphaned);
  process.send!({ ready: true, ...ready });
}

const exitNow = () => process.exit(1);

/**
 * In a child, first thing: until it serves (serveLauncher), it exits at once if the launcher goes
 * away. The launcher starts its children side by side and may be stopped while they start; it
 * stops only those that said they were ready, and one still starting (Next.js preparing) was left
 * running for good.
 */
export function exitWithLauncherWhileStarting() {
  if (process.send) process.on("disconnect", exitNow);
}
