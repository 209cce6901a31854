import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import S3rver from "s3rver";

type Ctx = { method: string; path: string; query: Record<string, string | undefined>; status: number; body: unknown; type: string };
type Middleware = (ctx: Ctx, next: () => Promise<void>) => Promise<void>;

const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * s3rver, a test S3 on local disk, with the three multipart calls it lacks and
 * real S3, MinIO and R2 answer: ListParts, ListMultipartUploads and
 * AbortMultipartUpload (@tus/s3-store resumes uploads with them). They read the
 * parts s3rver itself keeps for an upload (<bucket>/._S3rver_uploads/<uploadId>/).
 */
export async function startS3(directory: string, bucket = "castline") {
  const s3 = new S3rver({ port: 0, address: "127.0.0.1", silent: !process.env.S3_LOG, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const uploads = (b: string) => path.join(directory, b, "._S3rver_uploads");
  const noSuchUpload = (ctx: Ctx) => {
    ctx.status = 404;
    ctx.type = "application/xml";
    ctx.body = "<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>";
  };
  const multipart: Middleware = async (ctx, next) => {
    const [, b, encodedKey] = /^\/([^/]+)\/?(.*)$/.exec(ctx.path) ?? [];
    const key = encodedKey && decodeURIComponent(encodedKey);
    const dir = b && ctx.query.uploadId ? path.join(uploads(b), path.basename(ctx.query.uploadId)) : undefined;
    if (ctx.method === "GET" && key && dir) {
      if (!fs.existsSync(dir)) return noSuchUpload(ctx);
      const parts = fs
        .readdirSync(dir)
        .filter((f) => /^\d+$/.test(f))
        .map(Number)
        .sort((x, y) => x - y)
        .map((n) => {
          const stat = fs.statSync(path.join(dir, String(n)));
          const etag = fs.readFileSync(path.join(dir, `${n}.md5`), "utf8");
          return `<Part><PartNumber>${n}</PartNumber><LastModified>${stat.mtime.toISOString()}</LastModified><ETag>"${etag}"</ETag><Size>${stat.size}</Size></Part>`;
        });
      ctx.type = "application/xml";
      ctx.body = `<ListPartsResult><Bucket>${xml(b)}</Bucket><Key>${xml(key)}</Key><UploadId>${xml(ctx.query.uploadId!)}</UploadId><IsTruncated>false</IsTruncated>${parts.join("")}</ListPartsResult>`;
      return;
    }
    if (ctx.method === "DELETE" && key && dir) {
      if (!fs.existsSync(dir)) return noSuchUpload(ctx);
      fs.rmSync(dir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    if (ctx.method === "GET" && b && !key && "uploads" in ctx.query) {
      const prefix = ctx.query.prefix ?? "";
      const listed = (fs.existsSync(uploads(b)) ? fs.readdirSync(uploads(b)) : [])
        .map((uploadId) => {
          // Empty while s3rver is still creating the upload.
          const key = fs.existsSync(path.join(uploads(b), uploadId, "key")) ? fs.readFileSync(path.join(uploads(b), uploadId, "key"), "utf8") : "";
          const stat = fs.statSync(path.join(uploads(b), uploadId));
          return { uploadId, key, at: stat.birthtimeMs ? stat.birthtime : stat.mtime };
        })
        .filter((u) => u.key?.startsWith(prefix))
        .map((u) => `<Upload><Key>${xml(u.key)}</Key><UploadId>${u.uploadId}</UploadId><Initiated>${u.at.toISOString()}</Initiated></Upload>`);
      ctx.type = "application/xml";
      ctx.body = `<ListMultipartUploadsResult><Bucket>${xml(b)}</Bucket><IsTruncated>false</IsTruncated>${listed.join("")}</ListMultipartUploadsResult>`;
      return;
    }
    await next();
  };
  (s3 as unknown as { middleware: Middleware[] }).middleware.unshift(multipart);
  const { port } = (await s3.run()) as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => s3.close(() => r())),
  };
}
