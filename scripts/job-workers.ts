import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";

/**
 * The launcher's background-work processes: each runs scripts/worker.ts (the
 * built-in job driver) so jobs get their own cores and never slow the web
 * process's event loop. A worker that dies is started again; a worker whose
 * launcher dies (even by kill -9) sees its IPC channel close and exits.
 */
export interface JobWorkers {
  stop(): Promise<void>;
}

const WORKER = path.join(__dirname, "worker.ts");

function startWorker(index: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = fork(WORKER, [], { execArgv: ["--import", "tsx"], env: { ...process.env, JOB_WORKER_INDEX: String(index) } });
    const onExit = (code: number | null) => reject(new Error(`job worker ${index} exited with ${code} while starting`));
    child.once("exit", onExit);
    child.once("message", (message) => {
      if ((message as { ready?: boolean }).ready) {
        child.off("exit", onExit);
        resolve(child);
      }
    });
  });
}

export async function startJobWorkers(count: number): Promise<JobWorkers> {
  let stopping = false;
  const children = new Set<ChildProcess>();
  const supervise = (child: ChildProcess, index: number) => {
    children.add(child);
    child.once("exit", (code, signal) => {
      children.delete(child);
      if (stopping) return;
      console.error(`job worker ${index} exited (${signal ?? code}); starting it again`);
      setTimeout(() => startWorker(index).then((c) => supervise(c, index), (err) => console.error(err.message)), 1000);
    });
  };
  const started = await Promise.all(Array.from({ length: count }, (_, i) => startWorker(i)));
  started.forEach(supervise);
  return {
    async stop() {
      stopping = true;
      await Promise.all(
        [...children].map((child) => new Promise((resolve) => {
          child.once("exit", resolve);
          child.kill("SIGTERM");
        })),
      );
    },
  };
}
