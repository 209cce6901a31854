import fs from "node:fs";
import path from "node:path";

const DASHBOARD = path.join(process.cwd(), "app", "(dashboard)");

/**
 * A URL of every page of the dashboard (app/(dashboard)), read from the tree: a dynamic
 * segment ([id]) becomes a made-up id. What the sign-in matcher (proxy.ts) must cover.
 */
export function dashboardPages(dir = DASHBOARD, prefix = ""): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isFile()) return entry.name === "page.tsx" && prefix ? [prefix] : [];
    if (!entry.isDirectory()) return [];
    const segment = entry.name.startsWith("(") ? "" : `/${entry.name.replace(/^\[.*\]$/, "some-id")}`;
    return dashboardPages(path.join(dir, entry.name), prefix + segment);
  });
}
