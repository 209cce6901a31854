import { defineConfig } from "@playwright/test";

/**
 * Browser tests of the dashboard against a running Castline (a real app, database
 * and Chromium). Start the app yourself and point CASTLINE_URL at it, e.g.
 *   CASTLINE_URL=http://localhost:3000 npx playwright test
 */
const baseURL = process.env.CASTLINE_URL;
if (!baseURL) {
  throw new Error(
    "CASTLINE_URL is not set: start Castline (npm start) and run e.g. `CASTLINE_URL=http://localhost:3000 npx playwright test`",
  );
}

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  workers: 1,
  reporter: "list",
  // A dev server compiles each page on its first visit; a built app is much faster.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL,
    browserName: "chromium",
    screenshot: "only-on-failure",
    launchOptions: {
      // Debian's Chromium; Playwright's own browser download is not available offline.
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    },
  },
});
