import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/**
 * The baseline for the playback benchmarks: plain node:http serving the files of a folder
 * (playlists and segments) with the headers the app sends, from memory (/mem/<name>) or
 * streamed from disk after a stat (/disk/<name>), as the app's local store does; and, for
 * each `name=url` argument after the folder, the object at that URL (a pre-signed GET of the
 * S3 store) streamed through (/s3/<name>), as the app's S3 store does. Prints its URL on stdout.
 */
const [dir, ...remote] = process.argv.slice(2);
const TYPES: Record<string, string> = { m3u8: "application/vnd.apple.mpegurl", ts: "video/mp2t" };
const inMemory = new Map(fs.readdirSync(dir).map((name) => [name, fs.readFileSync(path.join(dir, name))]));
const inStore = new Map(remote.map((arg) => [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]));
// Kept-alive connections to the store, as the S3 client keeps them.
const storeAgent = new http.Agent({ keepAlive: true });

const headersFor = (name: string, size: number | string) => ({
  "content-type": TYPES[name.split(".").pop()!] ?? "application/octet-stream",
  "content-length": String(size),
  "cache-control": "public, max-age=31536000, immutable",
  "access-control-allow-origin": "*",
});

const server = http.createServer(async (req, res) => {
  const [, from, name] = /^\/(mem|disk|s3)\/([\w.-]+)$/.exec(req.url ?? "") ?? [];
  if (from === "s3" && inStore.has(name)) {
    http
      .get(inStore.get(name)!, { agent: storeAgent }, (object) => {
        if (object.statusCode !== 200) {
          object.resume();
          res.writeHead(502).end();
          return;
        }
        res.writeHead(200, headersFor(name, object.headers["content-length"]!));
        object.pipe(res);
      })
      .on("error", () => res.destroy());
    return;
  }
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
