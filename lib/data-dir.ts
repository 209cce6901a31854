import fs from "node:fs";
import path from "node:path";
import { config } from "@/lib/config";

/** Written once every file of an older data directory has been made private. */
const MARKER = ".private";

/**
 * DATA_DIR holds secrets (AUTH_SECRET, MEDIA_SECRET, the database password), uploads and
 * live media: nothing in it is for other local users. Every Castline process calls this
 * first: files it creates from then on are its user's alone (umask 077), and an older data
 * directory is tightened once. As root, DATA_DIR itself stays passable (0711) for the
 * embedded PostgreSQL, which runs as "postgres" and keeps its own folder 0700.
 */
export function usePrivateDataDir(): string {
  process.umask(0o077);
  const dir = config().dataDir;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!fs.existsSync(path.join(dir, MARKER))) {
    const self = fs.statSync(dir);
    fs.chmodSync(dir, self.mode & 0o711);
    tighten(dir);
    fs.writeFileSync(path.join(dir, MARKER), "");
  }
  return dir;
}

function tighten(dir: string) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (dir === config().dataDir && entry.name === "pg") continue; // PostgreSQL's own, already 0700
    const file = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    fs.chmodSync(file, fs.statSync(file).mode & 0o700);
    if (entry.isDirectory()) tighten(file);
  }
}
