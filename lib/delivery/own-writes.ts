/**
 * Read-your-writes for viewers of this instance. The viewer plane's cache (content.ts) learns of
 * changes from PostgreSQL's announcements, which reach the listening connection a moment after
 * the commit that made them, on another socket than the request that committed: a creator who
 * deletes a caption track and reloads the player could, for that moment, be served the master that
 * still lists it. The API answers a write only once this instance has seen its announcements.
 *
 * The API runs inside Next's bundle, with its own copy of every module, in its own process; the
 * launcher's front holds the listener. The barrier is set on globalThis, by the listener where it
 * runs, by the IPC below in Next's process.
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

/**
 * Next.js runs in a child process of the launcher (scripts/next-server.ts), and the listener is
 * the launcher's: there, a write's answer asks the launcher over IPC, which answers once its own
 * listener has seen the write (ownWritesSeen). Bounded as the mark is, should the launcher not answer.
 */
const ASK_WAIT_MS = 2000;

interface Ask {
  changesSeen: number;
}
interface Told {
  changesSeenDone: number;
}

/** In Next's process: writes wait for the launcher's listener. */
export function askLauncherForChangesSeen() {
  const waiting = new Map<number, () => void>();
  let asked = 0;
  process.on("message", (message) => {
    const id = (message as Partial<Told> | null)?.changesSeenDone;
    if (id !== undefined) waiting.get(id)?.();
  });
  setChangesSeenBarrier(
    () =>
      new Promise<void>((resolve) => {
        const id = ++asked;
        const done = () => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve();
        };
        const timer = setTimeout(done, ASK_WAIT_MS);
        waiting.set(id, done);
        process.send?.({ changesSeen: id } satisfies Ask);
      }),
  );
}

/** In the launcher: answers what Next's process asks (askLauncherForChangesSeen); other messages are not for it. */
export function answerChangesSeen(message: unknown, child: { connected: boolean; send(message: Told): boolean }) {
  const id = (message as Partial<Ask> | null)?.changesSeen;
  if (typeof id !== "number") return;
  void ownWritesSeen().finally(() => child.connected && child.send({ changesSeenDone: id }));
}
