import { Transform, type Readable } from "node:stream";

const REPORT_EVERY_MS = 1000;

/**
 * Passes bytes through and reports the fraction seen, at most once a second
 * (each report is a database write and maybe a webhook). A Transform rather
 * than a "data" listener, which would start the flow before the reader is ready.
 */
export function metered(source: Readable, total: number, report: (fraction: number) => unknown): Readable {
  let seen = 0;
  let reportedAt = Date.now();
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (total > 0 && Date.now() - reportedAt >= REPORT_EVERY_MS) {
        reportedAt = Date.now();
        void Promise.resolve(report(Math.min(1, seen / total))).catch(() => {});
      }
      done(null, chunk);
    },
  });
  // pipe() does not pass errors on: a broken source must fail the reader, not leave it waiting.
  source.once("error", (err) => meter.destroy(err));
  return source.pipe(meter);
}
