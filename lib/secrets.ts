import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config, reloadConfig } from "@/lib/config";

/**
 * Secrets the deployment needs but an operator may leave unset (AUTH_SECRET for
 * dashboard sessions, MEDIA_SECRET between media nodes and the app): generated
 * once into DATA_DIR and exported to the environment, so child processes share them.
 */
export function ensureSecret(envVar: "AUTH_SECRET" | "MEDIA_SECRET", dataDir: string): string {
  const given = config()[envVar];
  if (given) return given;
  const file = path.join(dataDir, envVar.toLowerCase().replace("_", "-"));
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  process.env[envVar] = fs.readFileSync(file, "utf8").trim();
  return reloadConfig()[envVar]!;
}

/**
 * A key of its own for each use of the deployment's AUTH_SECRET (upload URLs, sealed job
 * data), so that nothing made for one purpose is ever valid for another.
 */
export function derivedKey(purpose: string): Buffer {
  const secret = config().AUTH_SECRET;
  if (!secret) throw new Error(`AUTH_SECRET is not set: cannot derive the key for ${purpose}`);
  return createHmac("sha256", secret).update(purpose).digest();
}

const SEAL_KEY = "castline sealed job data v1";

/**
 * Secrets that background work needs (export credentials, import URLs that carry
 * credentials) travel sealed: AES-256-GCM under a key derived from AUTH_SECRET, so the
 * job tables, failure records and an Inngest server never hold them in plaintext.
 * Changing AUTH_SECRET makes jobs still waiting with sealed data fail.
 */
export function seal(value: unknown, purpose = SEAL_KEY): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derivedKey(purpose), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `sealed.v1.${iv.toString("base64url")}.${body.toString("base64url")}`;
}

/** `purpose`: what else is sealed this way (a key of its own), e.g. sign-up links; by default, job data. */
export function unseal<T>(sealed: string, purpose = SEAL_KEY): T {
  const [, version, iv, body] = sealed.split(".");
  if (version !== "v1" || !iv || !body) throw new Error("not sealed data");
  const bytes = Buffer.from(body, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", derivedKey(purpose), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(bytes.subarray(-16));
  return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(0, -16)), decipher.final()]).toString("utf8")) as T;
}
