import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import fs from "node:fs";

/**
 * Programs that never outlive the process that started them: on Linux each is started
 * through `setpriv --pdeathsig <signal>`, so the kernel signals it when its parent dies,
 * even by kill -9 (no handler of ours runs then). ffmpeg gets SIGKILL; the embedded
 * PostgreSQL gets SIGINT, its fast and clean shutdown.
 */
const SETPRIV = "/usr/bin/setpriv";
const hasSetpriv = fs.existsSync(SETPRIV);

export function spawnTied(bin: string, args: string[], opts: SpawnOptions, deathSignal: NodeJS.Signals = "SIGKILL"): ChildProcess {
  return hasSetpriv ? spawn(SETPRIV, ["--pdeathsig", deathSignal, "--", bin, ...args], opts) : spawn(bin, args, opts);
}
