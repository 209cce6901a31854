import fs from "node:fs";
import os from "node:os";

/**
 * Live work before background work on a machine that runs both: background encoders (VOD
 * renditions, clips, recordings' remux) run at this niceness, and fewer of them at once
 * while media nodes on the machine have live sessions.
 */
export const BACKGROUND_NICENESS = 10;

/**
 * Background work nobody waits for (the ABR ladder and seek previews of an asset that plays
 * already) runs after everything else: a clip or an upload made playable meanwhile, which its
 * creator is waiting for, gets nearly all the CPU live work leaves (at nice 10 against 19, 88%
 * of it; at 10 against 10, a ladder chunk took half and a 30 s clip took 17 s instead of 5).
 */
export const DEFERRED_NICENESS = 19;

/**
 * The machine this process runs on, as the processes sharing its CPUs know it: the kernel's
 * boot id, which containers on one host share (their hostnames differ), else the hostname.
 */
export const machineId = (() => {
  let id: string | undefined;
  return () => (id ??= bootId() ?? os.hostname());
})();

function bootId(): string | undefined {
  try {
    return fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

/** What the media nodes of one machine report. */
export interface LiveWork {
  sessions: number;
  /** Sessions whose live output fell behind real time (renditions dropped, or trailing). */
  lagging: number;
}

/**
 * How many background transcodes a process may run at once: `configured`
 * (TRANSCODE_CONCURRENCY) on a machine without broadcasts, half of it while live sessions
 * run there, one while a live transcoder there cannot keep up. Never none: background work
 * still moves, on the CPU live work leaves.
 */
export function backgroundTranscodeSlots(configured: number, live: LiveWork): number {
  if (live.lagging > 0) return 1;
  if (live.sessions > 0) return Math.max(1, Math.floor(configured / 2));
  return configured;
}
