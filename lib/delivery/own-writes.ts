/**
 * Read-your-writes for viewers of this instance. The viewer plane's cache (content.ts) learns of
 * changes from PostgreSQL's announcements, which reach the listening connection a moment after
 * the commit that made them, on another socket than the request that committed: a creator who
 * deletes a caption track and reloads the player could, for that moment, be served the master that
 * still lists it. The API answers a write only once this instance has seen its announcements.
 *
 * The API runs inside Next's bundle, with its own copy of every module; the launcher's front holds
 * the listener. The process is one, so the two meet here, on globalThis (as lib/metrics does).
 */
const holder = globalThis as unknown as { __castlineViewerChangesSeen?: () => Promise<void> };

/** Set by the listener while it follows the announcements; cleared when it stops. */
export function setChangesSeenBarrier(barrier: (() => Promise<void>) | undefined) {
  holder.__castlineViewerChangesSeen = barrier;
}

/** Resolves once every announcement committed before the call has been applied here (at once when nothing listens). */
export function ownWritesSeen(): Promise<void> {
  return holder.__castlineViewerChangesSeen?.() ?? Promise.resolve();
}
