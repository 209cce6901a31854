import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import postgres from "postgres";
import { startAppProcess } from "../scripts/app-process";
import { createScratchDatabase } from "../test/support/database";
import { startListening } from "./listening";

/**
 * A second deployment for the origin and upload benchmarks: one app instance whose
 * objects live in S3 (s3rver, in a process of its own, on this machine's disk), on a
 * scratch database of the bench's PostgreSQL, with an operator-made API key.
 */
export interface S3App {
  url: string;
  key: string;
  s3: { url: string; bucket: string; accessKeyId: string; secretAccessKey: string };
  stop(): Promise<void>;
}

export async function startS3App(env: NodeJS.ProcessEnv): Promise<S3App> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-bench-s3-"));
  const s3rver = await startListening("bench/s3rver.ts", [path.join(dir, "s3")]);
  const s3 = { url: s3rver.url, bucket: "castline", accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  const databaseUrl = await createScratchDatabase();
  const appEnv = {
    ...env,
    DATA_DIR: path.join(dir, "app"),
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: undefined,
    APP_URL: undefined,
    S3_ENDPOINT: s3.url,
    S3_BUCKET: s3.bucket,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  };
  fs.mkdirSync(appEnv.DATA_DIR);
  const app = await startAppProcess(appEnv);
  const cli = spawnSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", "keys", "create", "--email", "bench-s3@example.com", "--name", "bench"], {
    env: appEnv,
    encoding: "utf8",
  });
  if (cli.status !== 0) throw new Error(`creating the S3 app's API key failed: ${cli.stderr}`);
  const key = cli.stdout.trim().split("\n").pop()!;
  return {
    url: app.url,
    key,
    s3,
    async stop() {
      await app.stop();
      s3rver.stop();
      const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      await admin.unsafe(`DROP DATABASE IF EXISTS "${new URL(databaseUrl).pathname.slice(1)}" WITH (FORCE)`);
      await admin.end();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A pre-signed GET, straight from the store, of the object a URL of the S3 app names (a segment of
 * /asset/<playbackId>/hls/… or /hls/<playbackId>/…): the one under `prefix` whose key ends with the
 * URL's path after the playback id. What the app has to fetch to answer that URL.
 */
export async function presignedGet(s3: S3App["s3"], prefix: string, appUrl: string) {
  const client = new S3Client({
    endpoint: s3.url,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  const suffix = new URL(appUrl).pathname.split("/").slice(3).join("/");
  const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
  const key = listed.Contents?.find((o) => o.Key?.endsWith(`/${suffix}`))?.Key;
  if (!key) throw new Error(`no object for ${suffix} under ${prefix}`);
  return getSignedUrl(client, new GetObjectCommand({ Bucket: s3.bucket, Key: key }), { expiresIn: 3600 });
}
