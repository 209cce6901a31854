import os from "node:os";

/**
 * How busy the machine's CPUs were at normal priority between two readings: user, system and
 * interrupt time over all time. Niced work (background encoders) counts as room: live work
 * takes the CPU from it.
 */
export class CpuMeter {
  private last = cpuTimes();

  /** The busy share since the previous reading (0…1). */
  read(): number {
    const now = cpuTimes();
    const all = now.all - this.last.all;
    const busy = now.busy - this.last.busy;
    this.last = now;
    return all > 0 ? Math.min(1, Math.max(0, busy / all)) : 0;
  }
}

function cpuTimes() {
  let busy = 0;
  let all = 0;
  for (const { times } of os.cpus()) {
    busy += times.user + times.sys + times.irq;
    all += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { busy, all };
}
