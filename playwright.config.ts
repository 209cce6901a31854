import { defineConfig } from "@playwright/test";
import { CHROMIUM } from "./scripts/prerequisites";

/**
 * Browser tests of the dashboard against a running Castline (a real app, database
 * and Chromium). Start the app yourself and point CASTLINE_URL at it, e.g.
 *   CASTLINE_URL=http://localhost:3000 npx playwright test
 */
const baseURL = process.env.CASTLINE_URL;
if (!baseURL) {
  throw new Error("CASTLINE_URL is not set: start Castline (npm start) and run e.g. `CASTLINE_URL=http://localhost:3000 npx playwright test`");
}

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  // Each test makes its own account and streams, so files run side by side: much of a test is
  // waiting on media and polls. `npm test` runs the whole tier as two halves of one worker each,
  // side by side (scripts/test.ts); run directly, two workers.
  workers: Number(process.env.BROWSER_WORKERS ?? 2),
  reporter: "list",
  // Caps, not waits: a passing test ends as soon as its conditions hold. They are generous
  // because the suite must pass on a busy 2-core machine (load 25-35), where video takes
  // many times longer to start, switch and render than on a quiet one.
  timeout: 300_000,
  expect: { timeout: 30_000 },
  use: {
    baseURL,
    browserName: "chromium",
    screenshot: "only-on-failure",
    launchOptions: {
      // Debian's Chromium headless shell (scripts/prerequisites.ts installs it); Playwright's own
      // browser download is not available offline.
      executablePath: process.env.CHROMIUM_PATH ?? CHROMIUM.bin,
      args: [
        ...["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
        // No WebRTC over UDP: its candidates would be this machine's other addresses, and tests send to loopback only.
        // The player then finds no address for WebRTC and plays HLS at once (WebRTC playback: test/webrtc-ingest, in a namespace).
        "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
      ],
    },
  },
});
