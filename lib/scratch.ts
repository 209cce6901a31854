import fs from "node:fs";
import path from "node:path";
import { config } from "@/lib/config";

/** A scratch folder of this process for `work`, gone afterwards whatever happens. */
export async function inScratch<T>(name: string, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.promises.mkdtemp(path.join(await scratchRoot(), `${name}-`));
  try {
    return await work(dir);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/**
 * This process's scratch (DATA_DIR/work/p<pid>): processes sharing a DATA_DIR (npm start's
 * job workers) never touch each other's, and the first use sweeps the folders of processes
 * that are gone (a kill -9 leaves its chunks' files behind).
 */
let scratch: Promise<string> | undefined;
const scratchRoot = () =>
  (scratch ??= (async () => {
    const work = path.join(config().dataDir, "work");
    for (const dir of await fs.promises.readdir(work).catch(() => [])) {
      const pid = /^p(\d+)$/.exec(dir)?.[1];
      if (pid && Number(pid) !== process.pid && !alive(Number(pid))) await fs.promises.rm(path.join(work, dir), { recursive: true, force: true });
    }
    const mine = path.join(work, `p${process.pid}`);
    await fs.promises.mkdir(mine, { recursive: true });
    return mine;
  })());

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
