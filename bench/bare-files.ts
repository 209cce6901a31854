import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/**
 * The baseline for the origin benchmark: plain node:http serving the files of a
 * folder (an asset's playlist and segment) with the headers the app sends, from
 * memory (/mem/<name>) or streamed from disk after a stat (/disk/<name>), as the
 * app's local store does. Prints its URL on stdout.
 */
const dir = process.argv[2];
const TYPES: Record<string, string> = { m3u8: "application/vnd.apple.mpegurl", ts: "video/mp2t" };
const inMemory = new Map(fs.readdirSync(dir).map((name) => [name, fs.readFileSync(path.join(dir, name))]));

const headersFor = (name: string, size: number) => ({
  "content-type": TYPES[name.split(".").pop()!] ?? "application/octet-stream",
  "content-length": String(size),
  "cache-control": "public, max-age=31536000, immutable",
  "access-control-allow-origin": "*",
});

const server = http.createServer(async (req, res) => {
  const [, from, name] = /^\/(mem|disk)\/([\w.-]+)$/.exec(req.url ?? "") ?? [];
  const bytes = name && inMemory.get(name);
  if (!bytes) return void res.writeHead(404).end();
  if (from === "mem") return void res.writeHead(200, headersFor(name, bytes.length)).end(bytes);
  const file = path.join(dir, name);
  const stat = await fs.promises.stat(file);
  res.writeHead(200, headersFor(name, stat.size));
  fs.createReadStream(file).pipe(res);
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
