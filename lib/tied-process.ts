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
const NICE = "/usr/bin/nice";
const hasNice = fs.existsSync(NICE);

/**
 * `niceness` (0 unless given) lowers the program's CPU priority from its first instruction:
 * through `nice`, which execs it (same pid), before it starts any thread (on Linux a
 * thread's priority is its own: lowering it afterwards would miss the threads started by then).
 */
export function spawnTied(bin: string, args: string[], opts: SpawnOptions, deathSignal: NodeJS.Signals = "SIGKILL", niceness = 0): ChildProcess {
  const command: string[] = niceness && hasNice ? [NICE, "-n", String(niceness), bin, ...args] : [bin, ...args];
  return hasSetpriv ? spawn(SETPRIV, ["--pdeathsig", deathSignal, "--", ...command], opts) : spawn(command[0], command.slice(1), opts);
}
