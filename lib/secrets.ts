import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Secrets the deployment needs but an operator may leave unset (AUTH_SECRET for
 * dashboard sessions, MEDIA_SECRET between media nodes and the app): generated
 * once into DATA_DIR and exported to the environment, so child processes share them.
 */
export function ensureSecret(envVar: "AUTH_SECRET" | "MEDIA_SECRET", dataDir: string): string {
  if (process.env[envVar]) return process.env[envVar]!;
  const file = path.join(dataDir, envVar.toLowerCase().replace("_", "-"));
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  process.env[envVar] = fs.readFileSync(file, "utf8").trim();
  return process.env[envVar]!;
}
