import http from "node:http";

/**
 * Simulated HLS viewers of one live stream, run by the delivery benchmark in processes of
 * their own (`node --import tsx bench/viewers.ts '<ViewersJob as JSON>'`; prints a
 * ViewersResult as JSON on stdout when done). Each viewer is a real polling client: it joins
 * at a moment spread over the first `rampS` seconds, loads the master once, then its first
 * media playlist every target duration, and each segment that playlist names that it has not
 * fetched yet, once, in order (joining at the live edge: the newest segment only, as a player
 * starting there does). Requests go through one keep-alive Agent per process.
 */
export interface ViewersJob {
  masterUrl: string;
  viewers: number;
  /** Wall clock (ms) at which the first viewer may join. */
  startAt: number;
  rampS: number;
  /** From startAt; no request starts after it. */
  runS: number;
  /** Sockets of the Agent: enough that requests wait in it only once the server is already behind. */
  maxSockets: number;
  timeoutMs: number;
}

export interface ViewersResult {
  /** Milliseconds from request to the last byte of each 200 answer (masters and media playlists). */
  playlistMs: number[];
  segmentMs: number[];
  segmentBytes: number;
  /** Failed requests by kind and cause (HTTP status, timeout, error code). */
  errors: Record<string, number>;
  /** This process's CPU seconds from rampS to runS, and how late it was for startAt. */
  cpuS: number;
  lateMs: number;
}

const SEGMENT = /^[^#\s]/;
const sleepUntil = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));

async function simulate(job: ViewersJob): Promise<ViewersResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.maxSockets });
  const result: ViewersResult = { playlistMs: [], segmentMs: [], segmentBytes: 0, errors: {}, cpuS: 0, lateMs: Math.max(0, Date.now() - job.startAt) };
  const end = job.startAt + job.runS * 1000;
  const failed = (cause: string) => (result.errors[cause] = (result.errors[cause] ?? 0) + 1);

  /**
   * The body of a 200 answer (segments: counted, not kept), or undefined for a failure (counted).
   * A request not answered in full within timeoutMs of its start (its wait for a socket of the
   * Agent included) is given up, as a player gives up on it.
   */
  const get = (url: string, kind: "playlist" | "segment") =>
    new Promise<string | undefined>((resolve) => {
      const t = performance.now();
      let settled = false;
      let deadline: NodeJS.Timeout | undefined;
      const settle = (body: string | undefined, cause = "") => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        if (body === undefined) failed(`${kind} ${cause}`);
        else (kind === "playlist" ? result.playlistMs : result.segmentMs).push(performance.now() - t);
        resolve(body);
      };
      const req = http.get(url, { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => (kind === "playlist" ? chunks.push(c) : (result.segmentBytes += c.length)));
        res.on("end", () => (res.statusCode === 200 ? settle(Buffer.concat(chunks).toString()) : settle(undefined, String(res.statusCode))));
        res.on("error", (err: NodeJS.ErrnoException) => settle(undefined, err.code ?? err.message));
      });
      req.on("error", (err: NodeJS.ErrnoException) => settle(undefined, err.code ?? err.message));
      deadline = setTimeout(() => {
        settle(undefined, "timeout");
        req.destroy();
      }, job.timeoutMs);
    });

  const viewer = async (joinAt: number) => {
    let media: string | undefined;
    let targetS = 2;
    const fetched = new Set<string>();
    const poll = async () => {
      if (!media) {
        const master = await get(job.masterUrl, "playlist");
        const entry = master?.split("\n").find((l) => SEGMENT.test(l));
        if (!entry) return;
        media = new URL(entry.trim(), job.masterUrl).href;
      }
      const playlist = await get(media, "playlist");
      if (!playlist) return;
      targetS = Number(/#EXT-X-TARGETDURATION:(\d+)/.exec(playlist)?.[1] ?? targetS);
      const named = playlist
        .split("\n")
        .filter((l) => SEGMENT.test(l))
        .map((l) => l.trim());
      const fresh = fetched.size ? named.filter((s) => !fetched.has(s)) : named.slice(-1);
      for (const s of named) fetched.add(s);
      for (const s of fresh) {
        if (Date.now() >= end) return;
        await get(new URL(s, media).href, "segment");
      }
    };
    // Every target duration from its joining, whatever the last poll took (as players reload);
    // until the wall clock's end, however far behind a slow server left the polls.
    for (let next = joinAt; ; next += targetS * 1000) {
      await sleepUntil(next);
      if (Date.now() >= end) return;
      await poll();
    }
  };

  let cpuFrom: NodeJS.CpuUsage | undefined;
  const windowStart = setTimeout(() => (cpuFrom = process.cpuUsage()), job.startAt + job.rampS * 1000 - Date.now());
  const windowEnd = new Promise<void>((resolve) =>
    setTimeout(() => {
      const used = process.cpuUsage(cpuFrom);
      result.cpuS = cpuFrom ? (used.user + used.system) / 1e6 : Number.NaN;
      resolve();
    }, end - Date.now()),
  );
  await Promise.all(Array.from({ length: job.viewers }, () => viewer(job.startAt + Math.random() * job.rampS * 1000)));
  await windowEnd;
  clearTimeout(windowStart);
  agent.destroy();
  return result;
}

simulate(JSON.parse(process.argv[2]) as ViewersJob).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0)),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
