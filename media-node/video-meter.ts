/** Frame rate over this much media time: long enough to hold several frames at low rates. */
const WINDOW_MS = 2000;

/**
 * Ingest health of a publisher's video from its own timestamps (dts, in ms).
 * Counting frames as they arrive measures the network instead: a 30 fps
 * source that arrives in bursts read as 39 one second and 0 the next.
 */
export class VideoMeter {
  private recent: number[] = [];
  private lastKeyframeDts?: number;
  keyframeIntervalS?: number;

  frame(dts: number, keyframe: boolean) {
    const last = this.recent.at(-1);
    // a publisher that restarts its clock starts a new window
    if (last !== undefined && dts < last) this.recent = [];
    this.recent.push(dts);
    while (this.recent.length > 2 && dts - this.recent[0] > WINDOW_MS) this.recent.shift();
    if (keyframe) {
      if (this.lastKeyframeDts !== undefined && dts > this.lastKeyframeDts) this.keyframeIntervalS = (dts - this.lastKeyframeDts) / 1000;
      this.lastKeyframeDts = dts;
    }
  }

  /** Frames per second of media time over the last window, to 0.01. */
  get fps(): number | undefined {
    const span = this.recent.length > 1 ? this.recent.at(-1)! - this.recent[0] : 0;
    return span > 0 ? Math.round(((this.recent.length - 1) * 1000 * 100) / span) / 100 : undefined;
  }
}
