import assert from "node:assert/strict";
import { test } from "node:test";
import { unstable_doesMiddlewareMatch as matches } from "next/experimental/testing/server";
import { config } from "@/proxy";
import { dashboardPages } from "../support/dashboard-pages";

/**
 * Next needs proxy.ts's matcher written out (it reads it at build time), so it is a list kept
 * by hand: this checks it against the dashboard's pages as the tree has them. A page it misses
 * still asks for sign-in, but then opens the home page instead of coming back.
 */

test("the sign-in matcher covers every dashboard page", () => {
  const pages = dashboardPages();
  assert.ok(pages.includes("/broadcasts") && pages.includes("/streams/some-id"), `the pages as read: ${pages.join(", ")}`);
  const missed = pages.filter((url) => !matches({ config, url }));
  assert.deepEqual(missed, [], "add these pages' folders to proxy.ts's matcher");
  assert.ok(matches({ config, url: "/webhooks/some-id?tab=log" }), "with a query string too");
});

test("the sign-in matcher leaves the viewer's and the API's paths alone", () => {
  for (const url of ["/", "/play/abcd", "/hls/abcd/index.m3u8", "/api/stream", "/sign-in", "/docs", "/streamsx"]) {
    assert.equal(matches({ config, url }), false, url);
  }
});
