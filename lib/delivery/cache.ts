/**
 * Values read from PostgreSQL, held in memory until a change of what they were read from is
 * announced (lib/delivery/content.ts listens), with a TTL as the safety net for an announcement
 * missed. Each value carries tags naming the rows it came from ("s:<stream id>", ...); an
 * announcement names tags, and every value carrying one of them goes.
 *
 * Concurrent reads of one key share one load. A load that an announcement overtook (it started
 * before a change committed and ended after the announcement) answers the callers that came
 * before the announcement, and no later one: nothing stale outlives the announcement that made it so.
 */
export class TaggedCache {
  private readonly entries = new Map<string, Entry>();
  private readonly keysOfTag = new Map<string, Set<string>>();
  /** Keys whose load is under way: their tags are not known yet. */
  private readonly loading = new Set<string>();
  /** Bumped by every announcement and clear: a load started under an older one may be stale. */
  private generation = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly opts: { ttlMs: number; maxEntries: number }) {}

  get size() {
    return this.entries.size;
  }

  async get<T>(key: string, load: () => Promise<Loaded<T>>): Promise<T> {
    const now = Date.now();
    const entry = this.entries.get(key);
    if (entry && entry.expires > now) {
      this.hits++;
      return (await entry.value).value as T;
    }
    this.misses++;
    if (entry) this.remove(key);
    const started = this.generation;
    const value = load();
    const fresh: Entry = { value, expires: now + this.opts.ttlMs, tags: [] };
    this.entries.set(key, fresh);
    this.loading.add(key);
    value.then(
      (loaded) => {
        if (this.entries.get(key) !== fresh) return;
        this.loading.delete(key);
        if (this.generation !== started) return void this.remove(key);
        fresh.tags = loaded.tags;
        for (const tag of loaded.tags) {
          let keys = this.keysOfTag.get(tag);
          if (!keys) this.keysOfTag.set(tag, (keys = new Set()));
          keys.add(key);
        }
        this.evictOverflow();
      },
      () => this.entries.get(key) === fresh && this.remove(key),
    );
    return (await value).value;
  }

  /** Every value read from what these tags name is gone. */
  invalidate(tags: Iterable<string>) {
    this.generation++;
    // A load under way may have read the rows before the change: later callers load afresh.
    for (const key of this.loading) this.remove(key);
    for (const tag of tags) {
      const keys = this.keysOfTag.get(tag);
      if (!keys) continue;
      for (const key of [...keys]) this.remove(key);
    }
  }

  clear() {
    this.generation++;
    this.entries.clear();
    this.loading.clear();
    this.keysOfTag.clear();
  }

  private remove(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.loading.delete(key);
    for (const tag of entry.tags) {
      const keys = this.keysOfTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.keysOfTag.delete(tag);
    }
  }

  /** The oldest go first (a Map keeps insertion order): bounded memory whatever is asked for. */
  private evictOverflow() {
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.opts.maxEntries) break;
      this.remove(key);
    }
  }
}

/** A value and the rows it was read from. */
export interface Loaded<T> {
  value: T;
  tags: string[];
}

interface Entry {
  value: Promise<Loaded<unknown>>;
  expires: number;
  tags: string[];
}

/**
 * Objects of the store read for a moment (live playlists, which change every segment): many
 * viewers polling one playlist cost one read per `ttlMs`, and identical concurrent reads one.
 */
export class ShortLived<T> {
  private readonly entries = new Map<string, { value: Promise<T>; expires: number }>();
  hits = 0;
  misses = 0;

  constructor(private readonly opts: { ttlMs: number; maxEntries: number }) {}

  get(key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const entry = this.entries.get(key);
    if (entry && entry.expires > now) {
      this.hits++;
      return entry.value;
    }
    this.misses++;
    this.entries.delete(key);
    const value = load();
    const fresh = { value, expires: now + this.opts.ttlMs };
    this.entries.set(key, fresh);
    // A failed read is not kept: the next viewer tries again.
    value.catch(() => this.entries.get(key) === fresh && this.entries.delete(key));
    for (const k of this.entries.keys()) {
      if (this.entries.size <= this.opts.maxEntries) break;
      this.entries.delete(k);
    }
    return value;
  }
}

/** A file held whole: what the store says of it, and its bytes unless it is too large to hold. */
export interface HeldFile<Info extends { size: number }> {
  info: Info;
  body?: Buffer;
}

/**
 * Files many viewers fetch within seconds of each other (a live stream's newest segments: every
 * viewer fetches each one, about when it is listed), held whole in memory for `ttlMs`: one read
 * of the store however many ask, identical concurrent reads one, and answers written from memory.
 * Bounded in bytes (the least recently asked go first); a file over `maxFileBytes` is held
 * without its bytes (its size and validators only). A file not found, or a read that failed, is
 * not held: the next viewer asks the store again. Only for files never rewritten under their key.
 */
export class HotFiles<Info extends { size: number }> {
  private readonly entries = new Map<string, { value: Promise<HeldFile<Info> | undefined>; expires: number; bytes: number }>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly opts: { ttlMs: number; maxBytes: number; maxFileBytes: number }) {}

  /** The bytes held now. */
  get heldBytes() {
    return this.bytes;
  }

  get(key: string, stat: () => Promise<Info | undefined>, read: (info: Info) => Promise<Buffer>): Promise<HeldFile<Info> | undefined> {
    const now = Date.now();
    const entry = this.entries.get(key);
    if (entry && entry.expires > now) {
      this.hits++;
      // Most recently asked last: eviction takes from the front.
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry.value;
    }
    this.misses++;
    if (entry) this.remove(key);
    const fresh = { value: this.load(stat, read), expires: now + this.opts.ttlMs, bytes: 0 };
    this.entries.set(key, fresh);
    fresh.value.then(
      (held) => {
        if (this.entries.get(key) !== fresh) return;
        if (!held) return void this.remove(key);
        fresh.bytes = held.body?.length ?? 0;
        this.bytes += fresh.bytes;
        this.evictOverflow();
      },
      () => this.entries.get(key) === fresh && this.remove(key),
    );
    return fresh.value;
  }

  private async load(stat: () => Promise<Info | undefined>, read: (info: Info) => Promise<Buffer>): Promise<HeldFile<Info> | undefined> {
    const info = await stat();
    if (!info) return undefined;
    if (info.size > this.opts.maxFileBytes || info.size > this.opts.maxBytes) return { info };
    return { info, body: await read(info) };
  }

  private remove(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  private evictOverflow() {
    for (const key of this.entries.keys()) {
      if (this.bytes <= this.opts.maxBytes) break;
      this.remove(key);
    }
  }
}
