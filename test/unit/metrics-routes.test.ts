import assert from "node:assert/strict";
import { test } from "node:test";
import { methodLabel, routeTemplate } from "@/lib/metrics/routes";

test("requests are labelled with their route's template, never with ids", () => {
  const cases: [string, string, string | undefined, string][] = [
    ["GET", "/api/stream", "application/json", "/api/stream"],
    ["GET", "/api/stream/3f9c2b1e-7a7e-4d2a-9a51-0c1f2e3d4b5a", "application/json", "/api/stream/{id}"],
    ["PATCH", "/api/stream/abc/record", undefined, "/api/stream/{id}/record"],
    ["POST", "/api/asset/import", "application/json", "/api/asset/import"],
    ["GET", "/api/asset/abc", "application/json", "/api/asset/{id}"],
    ["POST", "/api/webhook/w1/log/l2/resend", "application/json", "/api/webhook/{id}/log/{logId}/resend"],
    ["PATCH", "/api/asset/upload/tus/u1", undefined, "/api/asset/upload/tus/{uploadId}"],
    ["OPTIONS", "/api/playback/p1", undefined, "/api/playback/{playbackId}"],
    ["GET", "/api/openapi.json", "application/json", "/api/openapi.json"],
    ["GET", "/api/auth/session", "application/json", "/api/auth/..."],
    ["GET", "/hls/pb123/720p/index.m3u8", "application/vnd.apple.mpegurl", "/hls/{playbackId}/..."],
    ["GET", "/recordings/s1/seg0.ts", "video/mp2t", "/recordings/{sessionId}/..."],
    ["GET", "/asset/pb123/video", "video/mp4", "/asset/{playbackId}/..."],
    ["GET", "/play/pb123", "text/html; charset=utf-8", "/play/{playbackId}"],
    ["GET", "/ipfs/QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG", undefined, "/ipfs/..."],
    ["GET", "/streams/abc", "text/html; charset=utf-8", "page"],
    ["GET", "/streams/abc", "text/x-component", "page"],
    ["GET", "/favicon.ico", "image/x-icon", "other"],
    ["GET", "/api/nothing/here", "application/json", "other"],
    ["GET", "/metrics", "text/plain", "/metrics"],
  ];
  for (const [method, path, type, expected] of cases) assert.equal(routeTemplate(method, path, type), expected, `${method} ${path}`);
  assert.equal(methodLabel("PROPFIND"), "other");
  assert.equal(methodLabel(undefined), "other");
  assert.equal(methodLabel("GET"), "GET");
});
