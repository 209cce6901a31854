import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** Auth.js needs AUTH_SECRET; when unset, one is generated once and kept in DATA_DIR. */
export function ensureAuthSecret(dataDir: string): string {
  if (process.env.AUTH_SECRET) return process.env.AUTH_SECRET;
  const file = path.join(dataDir, "auth-secret");
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  process.env.AUTH_SECRET = fs.readFileSync(file, "utf8").trim();
  return process.env.AUTH_SECRET;
}
