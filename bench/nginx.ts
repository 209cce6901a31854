import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/lib/net/free-port";
import { spawnTied } from "@/lib/tied-process";
import { ensurePrograms, NGINX } from "../scripts/prerequisites";

/**
 * nginx (Debian's) serving a folder from disk on 127.0.0.1, the floor the delivery benchmark
 * puts the app beside: what a static file server written in C does with the same bytes on
 * the same machine. One worker process, as the app is one instance; sendfile, keep-alive
 * without a request limit (node's servers have none), no access log; the headers the app sends.
 * It runs as a child of the bench with a configuration and prefix of its own (nothing of
 * /etc/nginx), unprivileged: as `nobody` when the bench runs as root; it serves copies of the
 * folder's files, in its prefix, where that user can read them.
 */
const NOBODY = 65534;
const READY_MS = 10_000;

export async function startNginx(folder: string): Promise<{ url: string; stop(): Promise<void> }> {
  ensurePrograms([NGINX]);
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), "castline-bench-nginx-"));
  const port = await freePort();
  const conf = path.join(prefix, "nginx.conf");
  const errorLog = path.join(prefix, "error.log");
  const root = path.join(prefix, "html");
  fs.cpSync(folder, root, { recursive: true });
  // Every path nginx would otherwise take from its build (under /var/lib/nginx, /run) is in the prefix.
  const temp = (name: string) => path.join(prefix, name);
  fs.writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${temp("nginx.pid")};
error_log ${errorLog} warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65;
  keepalive_requests 1000000000;
  client_body_temp_path ${temp("body")};
  proxy_temp_path ${temp("proxy")};
  fastcgi_temp_path ${temp("fastcgi")};
  uwsgi_temp_path ${temp("uwsgi")};
  scgi_temp_path ${temp("scgi")};
  types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; }
  server {
    listen 127.0.0.1:${port};
    root ${root};
    add_header Cache-Control "public, max-age=31536000, immutable";
    add_header Access-Control-Allow-Origin "*";
  }
}
`,
  );
  const asRoot = process.getuid?.() === 0;
  if (asRoot) for (const p of [prefix, root, ...fs.readdirSync(root).map((f) => path.join(root, f))]) fs.chownSync(p, NOBODY, NOBODY);
  // SIGTERM if the bench dies: nginx's master then stops its worker (a SIGKILL would orphan it).
  const child: ChildProcess = spawnTied(
    NGINX.bin,
    ["-p", prefix, "-c", conf, "-e", errorLog],
    { stdio: ["ignore", "ignore", "pipe"], ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}) },
    "SIGTERM",
  );
  let stderr = "";
  child.stderr!.on("data", (c) => (stderr += c));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    fs.rmSync(prefix, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + READY_MS;
  for (;;) {
    const answered = await fetch(`${url}/`).then(
      (r) => (void r.body?.cancel(), true),
      () => false,
    );
    if (answered) return { url, stop };
    if (child.exitCode !== null || Date.now() > until) {
      const log = `${stderr}${fs.existsSync(errorLog) ? fs.readFileSync(errorLog, "utf8") : ""}`;
      await stop();
      throw new Error(`nginx did not start: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
