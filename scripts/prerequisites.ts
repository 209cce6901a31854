import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { config } from "@/lib/config";

/**
 * System programs Castline needs. Missing ones are installed with apt-get when we
 * are root; otherwise we stop and say exactly what to install. Never skipped.
 */
export interface Program {
  bin: string;
  pkg: string;
  why: string;
}

const runs = (bin: string) => spawnSync(bin, ["-version"], { stdio: "ignore" }).status === 0;
/** A program named by its path is there when its file is (not every one answers -version). */
const installed = (p: Program) => (path.isAbsolute(p.bin) ? fs.existsSync(p.bin) : runs(p.bin));

/** ffmpeg and ffprobe (one Debian package): probing uploads, HLS, live transcoding. */
export const FFMPEG: Program = { bin: "ffmpeg", pkg: "ffmpeg", why: "video processing and live transcoding" };
/**
 * Chromium's headless shell (Debian's build of Chromium, its old headless mode, the one Playwright
 * itself runs headless tests in): the same engine, codecs and WebRTC as the full browser without
 * its browser UI, GPU process or extensions. Measured on the browser specs: a new page 1.1-1.5
 * CPU-s where the full browser took 4.9-5.7, a video spec half the CPU.
 */
export const CHROMIUM: Program = { bin: "/usr/bin/chromium-headless-shell", pkg: "chromium-headless-shell", why: "browser tests (Playwright)" };

/** The full Chromium: the headless shell gathers no ICE candidates on loopback, which the WebRTC tests have alone. */
export const CHROMIUM_WEBRTC: Program = { bin: "/usr/bin/chromium", pkg: "chromium", why: "the WebRTC tests (a browser publishing over WHIP on loopback)" };

/** Debian's nginx: the shared cache in front of the app that the CDN test and benchmark put there (deploy/nginx-cdn.conf). */
export const NGINX: Program = {
  bin: "/usr/sbin/nginx",
  pkg: "nginx-light",
  why: "the CDN test (a real nginx cache in front of the app) and the delivery benchmark's static-file baseline",
};

/**
 * iproute2's `ip` (and util-linux's unshare, on every Debian): the WebRTC tests run a whole Castline
 * and a browser in a network namespace with loopback alone, so that ICE finds nothing else.
 */
export const IPROUTE: Program = { bin: "/usr/sbin/ip", pkg: "iproute2", why: "the WebRTC tests (a network namespace with loopback only)" };

export function ensurePrograms(programs: Program[]) {
  const ffmpegPath = config().FFMPEG_PATH;
  if (programs.includes(FFMPEG) && ffmpegPath !== FFMPEG.bin) {
    // The operator chose a binary: installing a package would not change what runs.
    if (!runs(ffmpegPath)) stop(`FFMPEG_PATH=${ffmpegPath} does not run ffmpeg: point it at an ffmpeg binary, or unset it and install the "ffmpeg" package.`);
    programs = programs.filter((p) => p !== FFMPEG);
  }
  const missing = programs.filter((p) => !installed(p));
  if (!missing.length) return;
  const pkgs = missing.map((p) => p.pkg);
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  if (!isRoot || !hasApt) {
    const list = missing.map((p) => `  ${p.bin} (Debian/Ubuntu package "${p.pkg}", for ${p.why})`).join("\n");
    stop(`Missing system programs:\n${list}\nInstall them, e.g.: sudo apt-get install -y ${pkgs.join(" ")}`);
  }
  console.log(`Installing ${pkgs.join(", ")} with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  spawnSync("apt-get", ["update", "-q"], { stdio: "inherit", env });
  const result = spawnSync("apt-get", ["install", "-y", "-q", "--no-install-recommends", ...pkgs], { stdio: "inherit", env });
  if (result.status !== 0 || missing.some((p) => !installed(p))) stop(`apt-get install ${pkgs.join(" ")} failed`);
}

function stop(message: string): never {
  console.error(message);
  process.exit(1);
}
