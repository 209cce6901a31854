/** The protocol URL wallets and marketplaces resolve through any gateway. */
export const ipfsUrl = (cid: string) => `ipfs://${cid}`;

/** The same content through this app's own read-only gateway (lib/delivery/ipfs.ts). */
export const gatewayUrl = (origin: string, cid: string) => `${origin.replace(/\/$/, "")}/ipfs/${cid}`;
