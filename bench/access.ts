import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { call } from "@/lib/api/client";
import { operations } from "@/lib/api/operations";
import { withKey } from "./api-call";
import { loadBodies } from "./load";
import { makeClip, playerUrls, readyAsset, type UploadOptions, viewerJwts } from "./playback";

/**
 * What gating playback costs (issue 13):
 * - segment requests/s of one app instance for the same asset bytes, public vs JWT-gated
 *   (the gated segment URLs carry the playback token an admission hands out), interleaved
 *   twice so that neither side gets the warmer machine; target: gated/public >= 0.9;
 * - the playback-info request with a JWT on every request (each one verified) vs public;
 * - first admission through a webhook policy (a receiver on loopback answering 200 at once):
 *   latency of playback-info requests each with a new access key, next to the same request
 *   for a public asset (p50, p95).
 */
const ROUNDS = 2;
const ADMISSIONS = 100;

type Ctx = { appUrl: string; key: string };

async function latencies(urls: string[]) {
  const out: number[] = [];
  for (const url of urls) {
    const t = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    out.push(performance.now() - t);
  }
  out.sort((a, b) => a - b);
  const at = (q: number) => out[Math.min(out.length - 1, Math.floor(q * out.length))].toFixed(1);
  return { p50: at(0.5), p95: at(0.95) };
}

export async function benchAccess(ctx: Ctx) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-bench-access-"));
  const receiver = http.createServer((req, res) => req.resume().on("end", () => res.writeHead(200).end()));
  try {
    const file = path.join(dir, "clip.mp4");
    makeClip(file);
    const jwtFor = await viewerJwts(ctx.appUrl, ctx.key);
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const hook = await call(
      operations.createWebhook,
      { body: { name: "bench access", url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, events: ["playback.accessControl"] } },
      withKey(ctx.appUrl, ctx.key),
    );
    const asset = (body: UploadOptions) => readyAsset(ctx.appUrl, ctx.key, file, { name: "bench access", ...body });
    const open = await asset({});
    const gated = await asset({ playbackPolicy: { type: "jwt" } });
    const members = await asset({ playbackPolicy: { type: "webhook", webhookId: hook.id } });

    const jwt = await jwtFor(gated.playbackId);
    const info = (playbackId: string) => `${ctx.appUrl}/api/playback/${playbackId}`;
    const openUrls = await playerUrls(info(open.playbackId));
    const gatedUrls = await playerUrls(info(gated.playbackId), { "livepeer-jwt": jwt });
    if (!gatedUrls.segment.includes("tkn=")) throw new Error(`the gated segment URL has no token: ${gatedUrls.segment}`);

    console.log("\n## Access control: what gating playback costs (one app instance)");
    const rows: { what: string; rps: number; p50: number; p99: number; errors: number }[] = [];
    const rates = { segment: { open: [] as number[], gated: [] as number[] }, playlist: { open: [] as number[], gated: [] as number[] } };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const kind of ["segment", "playlist"] as const) {
        for (const [side, urls] of [
          ["open", openUrls],
          ["gated", gatedUrls],
        ] as const) {
          const url = urls[kind];
          await loadBodies(url, 2);
          const f = await loadBodies(url);
          rates[kind][side].push(f.rps);
          const how = side === "open" ? "public" : kind === "segment" ? "JWT-gated (token URL)" : "JWT-gated (token URL, segments named with it)";
          rows.push({
            what: `${kind === "segment" ? "segment" : "media playlist"}, ${how}, round ${round}`,
            rps: f.rps,
            p50: f.p50,
            p99: f.p99,
            errors: f.errors,
          });
        }
      }
    }
    for (const [what, url] of [
      ["playback info, public", info(open.playbackId)],
      ["playback info, JWT verified per request", `${info(gated.playbackId)}?jwt=${jwt}`],
    ] as const) {
      await loadBodies(url, 2);
      const f = await loadBodies(url);
      rows.push({ what, rps: f.rps, p50: f.p50, p99: f.p99, errors: f.errors });
    }
    console.table(rows.map((r) => ({ what: r.what, "req/s": Math.round(r.rps), "p50 ms": r.p50, "p99 ms": r.p99, errors: r.errors })));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const ratio = mean(rates.segment.gated) / mean(rates.segment.open);
    console.log(`gated/public segment throughput: ${ratio.toFixed(3)} (target >= 0.9) ${ratio >= 0.9 ? "MET" : "MISSED"}`);
    console.log(`gated/public media playlist throughput: ${(mean(rates.playlist.gated) / mean(rates.playlist.open)).toFixed(3)}`);

    const firstAdmissions = await latencies(Array.from({ length: ADMISSIONS }, (_, i) => `${info(members.playbackId)}?accessKey=bench-${i}-${Date.now()}`));
    const publicInfo = await latencies(Array.from({ length: ADMISSIONS }, () => info(open.playbackId)));
    console.table(
      [
        { what: "playback info, webhook policy, first admission (receiver on loopback)", ...firstAdmissions },
        { what: "playback info, public (baseline)", ...publicInfo },
      ].map((r) => ({ what: r.what, "p50 ms": r.p50, "p95 ms": r.p95 })),
    );
  } finally {
    receiver.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
