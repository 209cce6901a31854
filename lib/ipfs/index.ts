/**
 * IPFS for asset exports: our own CIDs (kubo's `ipfs add` defaults) in a local
 * blockstore that the app serves at /ipfs/<cid>, NFT metadata, and pinning to a
 * Pinata-compatible service. No IPFS node or network: blocks reach the network by pinning.
 */
export { addToIpfs, type IpfsAdded } from "./add";
export { ipfsFile } from "./read";
export { nftMetadata, type Metadata, type NftAsset } from "./metadata";
export { pinToService, type Pin, type PinNames, type PinnableFile, type PinningCredentials } from "./pinning";
export { gatewayUrl, ipfsUrl } from "./urls";
