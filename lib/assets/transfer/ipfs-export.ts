import type { PlaybackPolicy } from "@/lib/access/schema";

/**
 * Why an asset may not be exported to IPFS, if it may not: its file there is
 * public to anyone who has the CID (the app's gateway at /ipfs/<cid>, a pinning
 * service, the IPFS network), with no playback policy, so an asset whose policy
 * limits its viewers (a JWT, a webhook, or allowed origins) would lose it.
 * Checked on the export request and again when the export runs.
 */
export function ipfsExportRefusal(policy: PlaybackPolicy | null | undefined): string | undefined {
  if (!policy) return undefined;
  const limit = policy.type === "jwt" ? "a JWT" : policy.type === "webhook" ? "a webhook" : policy.allowedOrigins?.length ? "its allowed origins" : undefined;
  return (
    limit &&
    `this asset's playback policy limits its viewers (${limit}); on IPFS it would be public to anyone with its CID. Make it public first, or export it to a URL of yours`
  );
}
