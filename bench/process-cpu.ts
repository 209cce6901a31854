import fs from "node:fs";

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const USER_HZ = 100;

export interface ProcStat {
  comm: string;
  ppid: number;
  /** utime + stime + cutime + cstime: its own CPU and that of its children it has reaped. */
  ticks: number;
}

/** What /proc says of a process: its command name, parent and CPU ticks; none once it is gone. */
export function procStat(pid: number | string): ProcStat | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may hold spaces and parentheses itself.
    const close = text.lastIndexOf(")");
    const fields = text.slice(close + 2).split(" ");
    return {
      comm: text.slice(text.indexOf("(") + 1, close),
      ppid: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return undefined; // gone meanwhile
  }
}

/**
 * CPU seconds used so far by a process and all its descendants (an app instance: its job
 * workers, its media node, their ffmpegs), or by those of them named `comm` only. Two readings
 * apart give the tree's CPU over the window; a child that ended within it counts through its
 * parent's reaped times (all of them: only a whole tree's figure includes it).
 */
export function treeCpuSeconds(rootPid: number, comm?: string): number {
  const stats = new Map<number, ProcStat>();
  for (const pid of fs.readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    const s = procStat(pid);
    if (s) stats.set(Number(pid), s);
  }
  const inTree = new Set([rootPid]);
  // Parents are listed before their children mostly, not always (pids wrap): repeat until stable.
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, s] of stats) {
      if (!inTree.has(pid) && inTree.has(s.ppid)) inTree.add(pid), (grew = true);
    }
  }
  let ticks = 0;
  for (const pid of inTree) {
    const s = stats.get(pid);
    if (s && (!comm || s.comm === comm)) ticks += s.ticks;
  }
  return ticks / USER_HZ;
}
