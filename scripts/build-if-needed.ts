import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * `npm start` right after `npm install` must work, so the launcher builds the
 * Next app when there is no build, or when the sources changed since the last one.
 */
const INPUTS = [
  "app",
  "components",
  "lib",
  "db",
  "inngest",
  "public",
  "proxy.ts",
  "next.config.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  "package-lock.json",
];
const STAMP = ".next/castline-sources.sha256";

function* files(entry: string): Generator<string> {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return;
  if (!stat.isDirectory()) return yield entry;
  for (const name of fs.readdirSync(entry).sort()) yield* files(path.join(entry, name));
}

function sourcesFingerprint(root: string): string {
  const hash = createHash("sha256");
  for (const input of INPUTS) {
    for (const file of files(path.join(root, input))) {
      hash.update(path.relative(root, file)).update("\0").update(fs.readFileSync(file)).update("\0");
    }
  }
  return hash.digest("hex");
}

export async function buildIfNeeded(root = process.cwd()): Promise<void> {
  const fingerprint = sourcesFingerprint(root);
  const stamp = path.join(root, STAMP);
  const built = fs.existsSync(path.join(root, ".next/BUILD_ID"));
  if (built && fs.readFileSync(stamp, { encoding: "utf8", flag: "a+" }) === fingerprint) return;
  console.log("Building the web app (first start or sources changed)…");
  const child = spawn(process.execPath, [require.resolve("next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: "inherit",
    // The build id from the sources (next.config.ts): instances built apart from the same sources agree on it.
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", CASTLINE_BUILD_ID: fingerprint.slice(0, 32) },
  });
  const status = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (status !== 0) throw new Error(`next build failed (exit ${status})`);
  fs.writeFileSync(stamp, fingerprint);
}

if (require.main === module) void buildIfNeeded();
