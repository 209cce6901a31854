/** Bitrate over this much media time: one bucket of the health history, so a reading and its bucket agree. */
const WINDOW_MS = 5000;
/** Timestamps that go back further than this are a publisher restarting its clock, not interleaving. */
const CLOCK_RESTART_MS = 1000;

/**
 * The bitrate an encoder sends (video and audio), from its packets' sizes and timestamps (dts, ms).
 * Counting the connection's bytes per wall-clock beat measures the network and the event loop
 * instead: on a busy node a late beat counted two seconds of bytes as one (4,509 kbps shown beside
 * a history of 2,229 kbps for the same feed).
 */
export class BitrateMeter {
  private recent: { dts: number; bytes: number }[] = [];
  private bytes = 0;
  private newest = -Infinity;

  packet(dts: number, bytes: number) {
    if (dts < this.newest - CLOCK_RESTART_MS) {
      this.recent = [];
      this.bytes = 0;
      this.newest = -Infinity;
    }
    this.recent.push({ dts, bytes });
    this.bytes += bytes;
    this.newest = Math.max(this.newest, dts);
    while (this.recent.length > 2 && this.newest - this.recent[0].dts > WINDOW_MS) this.bytes -= this.recent.shift()!.bytes;
  }

  /** Kilobits per second of media time over the last window (the first packet opens it, the rest fill it). */
  get kbps(): number | undefined {
    const span = this.recent.length > 1 ? this.newest - this.recent[0].dts : 0;
    return span > 0 ? Math.round(((this.bytes - this.recent[0].bytes) * 8) / span) : undefined;
  }
}
