import { randomBytes } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import { bodyPrefix } from "@/lib/bounded-body";
import { config } from "@/lib/config";
import type { Metadata } from "./metadata";

/** A Pinata-compatible pinning service: a JWT, or Pinata's legacy key pair. */
export type PinningCredentials = { jwt: string } | { apiKey: string; apiSecret: string };

export interface PinnableFile {
  name: string;
  /** Exact byte count: the upload declares it up front. */
  size: number;
  open(): Promise<Readable>;
}

/** Names the pins get in the service's dashboard; default: the file's name, and that plus " metadata". */
export interface PinNames {
  video?: string;
  metadata?: string;
}

export interface Pin {
  cid: string;
  /** As the service counts it (DAG bytes for pinFileToIPFS). */
  size: number;
}

/** A stalled upload or an answer that never comes fails after this long without any traffic. */
const IDLE_TIMEOUT_MS = 60_000;
/** Enough of an error body to say what went wrong. */
const ERROR_EXCERPT_CHARS = 200;
const MAX_ANSWER_BYTES = 64 * 1024;
/** CIDv0 like our own CIDs, so the service's IpfsHash can be compared with ours. */
const PIN_OPTIONS = { cidVersion: 0 };

/** Pins the video, then its NFT metadata. */
export async function pinToService(
  credentials: PinningCredentials,
  file: PinnableFile,
  metadata: Metadata,
  names: PinNames = {},
): Promise<{ video: Pin; metadata: Pin }> {
  const api = config().PINNING_API_URL.replace(/\/$/, "");
  const videoName = names.video ?? file.name;

  const boundary = `castline-${randomBytes(12).toString("hex")}`;
  const form = multipart(boundary, { pinataMetadata: JSON.stringify({ name: videoName }), pinataOptions: JSON.stringify(PIN_OPTIONS) }, file);
  const video = await pin(credentials, `${api}/pinning/pinFileToIPFS`, `multipart/form-data; boundary=${boundary}`, form);

  const json = Buffer.from(
    JSON.stringify({
      pinataContent: metadata,
      pinataMetadata: { name: names.metadata ?? `${videoName} metadata` },
      pinataOptions: PIN_OPTIONS,
    }),
  );
  const meta = await pin(credentials, `${api}/pinning/pinJSONToIPFS`, "application/json", {
    length: json.length,
    open: async () => Readable.from([json]),
  });
  return { video, metadata: meta };
}

interface Body {
  length: number;
  open(): Promise<Readable>;
}

/**
 * A multipart/form-data body built as a stream around the file, with its length
 * known in advance, so the file is never in memory. The small fields go first: a
 * streaming parser on the other side has the options before the file's bytes.
 */
function multipart(boundary: string, fields: Record<string, string>, file: PinnableFile): Body {
  const filename = file.name.replace(/[^\w. -]/g, "_");
  const head = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join("") +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
      "Content-Type: application/octet-stream\r\n\r\n",
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* parts() {
    yield head;
    let sent = 0;
    for await (const chunk of await file.open()) {
      sent += chunk.length;
      yield chunk;
    }
    // The declared length is already on the wire; a short or long file would corrupt the form.
    if (sent !== file.size) throw new Error(`${file.name} has ${sent} bytes, not the ${file.size} declared`);
    yield tail;
  }
  return { length: head.length + file.size + tail.length, open: async () => Readable.from(parts(), { objectMode: false }) };
}

function authHeaders(credentials: PinningCredentials): Record<string, string> {
  return "jwt" in credentials
    ? { authorization: `Bearer ${credentials.jwt}` }
    : {
        // The spec names pinning_*; Pinata itself reads pinata_*. Both go, so either kind of service works.
        pinning_api_key: credentials.apiKey,
        pinning_secret_api_key: credentials.apiSecret,
        pinata_api_key: credentials.apiKey,
        pinata_secret_api_key: credentials.apiSecret,
      };
}

/** The service's error text for a message: short, on one line, and never echoing a credential back. */
function excerpt(text: string, credentials: PinningCredentials): string {
  let safe = text;
  for (const secret of Object.values(credentials)) if (secret) safe = safe.split(secret).join("[redacted]");
  return safe.replace(/\s+/g, " ").trim().slice(0, ERROR_EXCERPT_CHARS);
}

async function pin(credentials: PinningCredentials, url: string, contentType: string, body: Body): Promise<Pin> {
  const endpoint = new URL(url).pathname.split("/").pop();
  const headers = { ...authHeaders(credentials), "content-type": contentType, "content-length": String(body.length), accept: "application/json" };
  const answer = await post(url, headers, await body.open());
  if (answer.status < 200 || answer.status > 299) {
    throw new Error(`pinning service answered ${answer.status} to ${endpoint}: ${excerpt(answer.text, credentials) || "(no body)"}`);
  }
  let parsed: { IpfsHash?: unknown; PinSize?: unknown } | undefined;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed?.IpfsHash !== "string" || typeof parsed.PinSize !== "number") {
    throw new Error(`pinning service gave no IpfsHash/PinSize for ${endpoint}: ${excerpt(answer.text, credentials)}`);
  }
  return { cid: parsed.IpfsHash, size: parsed.PinSize };
}

/** One POST with a streamed body; resolves with the answer whatever its status. */
function post(url: string, headers: Record<string, string>, body: Readable): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = (url.startsWith("https:") ? https : http).request(url, { method: "POST", headers });
    req.setTimeout(IDLE_TIMEOUT_MS, () => req.destroy(new Error(`pinning service: no traffic for ${IDLE_TIMEOUT_MS / 1000} s`)));
    req.on("error", (err) => {
      body.destroy();
      reject(err);
    });
    req.once("response", (res) => {
      bodyPrefix(res, MAX_ANSWER_BYTES).then((answer) => {
        resolve({ status: res.statusCode ?? 0, text: answer.toString("utf8") });
        // A service that answers early (a 401 before the upload ends) needs no more of the file.
        body.destroy();
        req.destroy();
      }, reject);
    });
    // Not pipeline(): it would abort the request and report "socket hang up" instead of the body's own error.
    body.on("error", (err) => req.destroy(err));
    body.pipe(req);
  });
}
