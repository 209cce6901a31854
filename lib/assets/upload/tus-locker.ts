import { ERRORS, type Lock, type Locker, type RequestRelease } from "@tus/server";
import postgres from "postgres";

/** Where a request that waits for an upload asks its holder, on whichever instance, to let go. */
const RELEASE_CHANNEL = "castline_tus_release";

/** Advisory-lock keys of tus uploads, apart from the job driver's concurrency keys. */
const keyOf = (uploadId: string) => `castline tus upload ${uploadId}`;

/**
 * tus's lock on an upload (one request at a time writes or reads its offset),
 * held across every app instance on the database: a PostgreSQL session-level
 * advisory lock, taken on one connection per process. Whatever kills a process
 * (kill -9 included) closes that connection, and PostgreSQL drops its locks at
 * once; a machine that vanishes without closing it is noticed by TCP keepalives
 * within about 20 s. A request that waits asks the holder to let go, as tus
 * intends (a client resuming after a lost connection must not wait for the dead
 * request): a NOTIFY that each process LISTENs for, repeated while it waits.
 */
export class PgLocker implements Locker {
  /** This process's holders (and takers under way): advisory locks are re-entrant within a session, so one request per upload here. */
  readonly holders = new Map<string, RequestRelease>();
  private readonly sql: postgres.Sql;
  private listening?: Promise<unknown>;

  constructor(
    url: string,
    readonly acquireTimeoutMs = 30_000,
  ) {
    this.sql = postgres(url, {
      max: 1,
      // The connection holds the locks: it must not be recycled while they are held (no idle timeout by default).
      max_lifetime: null,
      onnotice: () => {},
      onclose: () => this.connectionLost(),
      connection: { application_name: "castline tus locks", tcp_keepalives_idle: 5, tcp_keepalives_interval: 5, tcp_keepalives_count: 3 },
    });
  }

  newLock(id: string): Lock {
    return new PgLock(this, id);
  }

  /** Takes the upload's lock if nobody, here or elsewhere, holds it. */
  async tryAcquire(id: string, requestRelease: RequestRelease): Promise<boolean> {
    await (this.listening ??= this.sql
      .listen(RELEASE_CHANNEL, (waited) => void this.holders.get(waited)?.())
      .catch((err) => {
        this.listening = undefined;
        throw err;
      }));
    if (this.holders.has(id)) return false;
    this.holders.set(id, requestRelease);
    try {
      const [{ locked }] = await this.sql<{ locked: boolean }[]>`SELECT pg_try_advisory_lock(hashtextextended(${keyOf(id)}, 0)) AS locked`;
      if (locked) return true;
    } catch (err) {
      this.holders.delete(id);
      throw err;
    }
    this.holders.delete(id);
    return false;
  }

  async release(id: string): Promise<void> {
    try {
      await this.sql`SELECT pg_advisory_unlock(hashtextextended(${keyOf(id)}, 0))`;
    } finally {
      this.holders.delete(id);
    }
  }

  /** Asks whoever holds the upload, on any instance, to end its request. */
  async askRelease(id: string): Promise<void> {
    await this.sql`SELECT pg_notify(${RELEASE_CHANNEL}, ${id})`;
  }

  /** The session and its locks are gone: requests that thought they held one stop. */
  private connectionLost() {
    if (!this.holders.size) return;
    console.error(`the tus lock connection closed: ending ${this.holders.size} upload request(s) that held a lock`);
    for (const requestRelease of this.holders.values()) void requestRelease();
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 1 });
  }
}

const ASK_AGAIN_MS = 2000;

class PgLock implements Lock {
  constructor(
    private readonly locker: PgLocker,
    private readonly id: string,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + this.locker.acquireTimeoutMs;
    let askedAt = 0;
    for (let attempt = 0; ; attempt++) {
      if (signal.aborted) throw ERRORS.ERR_LOCK_TIMEOUT;
      if (await this.locker.tryAcquire(this.id, requestRelease)) return;
      // Again now and then: a new holder may have come between, or missed the first ask while reconnecting.
      if (Date.now() - askedAt >= ASK_AGAIN_MS) {
        askedAt = Date.now();
        await this.locker.askRelease(this.id);
      }
      if (Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      await pause(Math.min(25 * 2 ** attempt, 250, deadline - Date.now()), signal);
    }
  }

  async unlock(): Promise<void> {
    if (!this.locker.holders.has(this.id)) throw new Error(`releasing the lock of tus upload ${this.id}, which is not held`);
    await this.locker.release(this.id);
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
