import { spawnSync } from "node:child_process";
import fs from "node:fs";

/**
 * System programs the tests need. Missing ones are installed with apt-get when
 * we are root; otherwise we stop and say exactly what to install. Never skipped.
 */
const PROGRAMS = [
  { bin: "/usr/bin/chromium", pkg: "chromium", why: "browser tests (Playwright)" },
  { bin: "ffmpeg", pkg: "ffmpeg", why: "live transcoding, recordings and the media tests" },
];

const installed = (bin: string) =>
  bin.startsWith("/") ? fs.existsSync(bin) : spawnSync("sh", ["-c", `command -v ${bin}`]).status === 0;

export function ensurePrerequisites() {
  const missing = PROGRAMS.filter((p) => !installed(p.bin));
  if (!missing.length) return;
  const pkgs = missing.map((p) => p.pkg);
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  if (!isRoot || !hasApt) {
    const list = missing.map((p) => `  ${p.bin} (Debian/Ubuntu package "${p.pkg}", for ${p.why})`).join("\n");
    console.error(`Missing system programs:\n${list}\nInstall them, e.g.: sudo apt-get install -y ${pkgs.join(" ")}`);
    process.exit(1);
  }
  console.log(`Installing ${pkgs.join(", ")} with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  spawnSync("apt-get", ["update", "-q"], { stdio: "inherit", env });
  const result = spawnSync("apt-get", ["install", "-y", "-q", "--no-install-recommends", ...pkgs], { stdio: "inherit", env });
  if (result.status !== 0) {
    console.error(`apt-get install ${pkgs.join(" ")} failed`);
    process.exit(1);
  }
}
