import { Readable } from "node:stream";
import { discardBody } from "@/lib/bounded-body";
import { addToIpfs, gatewayUrl, ipfsUrl, nftMetadata, pinToService } from "@/lib/ipfs";
import { guardedRequest, PrivateAddressError } from "@/lib/net/guard";
import { publicOrigin } from "@/lib/origin";
import { objects } from "@/lib/storage";
import { updateTask } from "@/lib/tasks/service";
import { ipfsExportRefusal } from "./ipfs-export";
import { sourceKey } from "../keys";
import { metered } from "./progress";
import type { ExportAsset } from "../schema";
import { assetById, serializeAsset, updateAsset } from "../service";

export interface ExportRequest {
  taskId: string;
  assetId: string;
  export: ExportAsset;
}

/** ok: false is final (the user must change something); thrown errors are retried. */
export type ExportResult = { ok: true } | { ok: false; reason: string };

const IDLE_TIMEOUT_MS = 60_000;

/** The asset's source as a stream whose reading fills the first `share` of the task's progress. */
async function readSource(assetId: string, taskId: string, share: number) {
  const key = sourceKey(assetId);
  const info = await objects().stat(key);
  if (!info) throw new Error("the asset's file is missing from storage");
  const stream = metered(await objects().read(key), info.size, (fraction) => updateTask(taskId, { progress: fraction * share }));
  return { stream, size: info.size };
}

/** Streams the file to the user's URL with their method and headers; 4xx is final, 5xx retried. */
export async function exportToUrl(job: ExportRequest): Promise<ExportResult> {
  const custom = job.export.custom!;
  const { stream, size } = await readSource(job.assetId, job.taskId, 0.99);
  const headers: Record<string, string> = { "content-type": "video/mp4", ...custom.headers, "content-length": String(size) };
  let status: number;
  try {
    const res = await guardedRequest(custom.url, { method: custom.method, headers, body: stream, timeoutMs: IDLE_TIMEOUT_MS });
    discardBody(res);
    status = res.statusCode ?? 0;
  } catch (err) {
    stream.destroy();
    if (err instanceof PrivateAddressError) return { ok: false, reason: `Export failed: ${new URL(custom.url).host} is ${err.refusal}` };
    throw err;
  }
  if (status >= 500 || status === 408 || status === 429) throw new Error(`the export URL answered ${status}`);
  if (status < 200 || status >= 300) return { ok: false, reason: `Export failed: the URL answered ${status}` };
  await updateTask(job.taskId, {
    phase: "completed",
    progress: 1,
    output: { export: { custom: { url: new URL(custom.url).origin + new URL(custom.url).pathname, method: custom.method, status } } },
  });
  return { ok: true };
}

/**
 * Adds the file and its NFT metadata to the app's IPFS blockstore (CIDs as kubo
 * computes them, served by the app's gateway at /ipfs/<cid>), pins both to a
 * pinning service when the request brought credentials, and records the CIDs on
 * the asset and the task.
 */
export async function exportToIpfs(job: ExportRequest): Promise<ExportResult> {
  const asset = await assetById(job.assetId);
  if (!asset) return { ok: false, reason: "Export failed: the asset no longer exists" };
  // Its policy may have changed since the export was asked for.
  const gated = ipfsExportRefusal(asset.playbackPolicy);
  if (gated) return { ok: false, reason: `Export failed: ${gated}` };
  const ipfs = job.export.ipfs!;
  const source = await readSource(job.assetId, job.taskId, 0.8);
  const video = await addToIpfs(source.stream);
  const origin = publicOrigin();
  const metadata = nftMetadata(
    { name: asset.name, playbackId: asset.playbackId, videoCid: video.cid, downloadUrl: serializeAsset(asset).downloadUrl },
    ipfs.nftMetadata,
  );
  const metadataFile = await addToIpfs(Readable.from([Buffer.from(JSON.stringify(metadata))]));
  await updateTask(job.taskId, { progress: 0.85 });

  let pinned: Record<string, unknown> | undefined;
  if (ipfs.pinning) {
    const file = { name: `${asset.name}.mp4`, size: source.size, open: () => objects().read(sourceKey(job.assetId)) };
    try {
      const result = await pinToService(ipfs.pinning, file, metadata);
      pinned = { videoFileCid: result.video.cid, nftMetadataCid: result.metadata.cid };
    } catch (err) {
      // Refused credentials or requests will not pass on a retry; outages might.
      const status = Number(/answered (\d{3})/.exec((err as Error).message)?.[1]);
      if (status >= 400 && status < 500 && status !== 408 && status !== 429) return { ok: false, reason: `Export failed: ${(err as Error).message}` };
      throw err;
    }
  }

  const link = (cid: string) => ({ cid, url: ipfsUrl(cid), gatewayUrl: gatewayUrl(origin, cid) });
  const now = Date.now();
  await updateAsset(job.assetId, {
    storage: {
      ipfs: { spec: ipfs.nftMetadata ? { nftMetadata: ipfs.nftMetadata } : {}, ...link(video.cid), nftMetadata: link(metadataFile.cid), updatedAt: now },
    },
    storageStatus: { ipfs: { taskIds: { last: job.taskId }, data: { videoFileCid: video.cid, nftMetadataCid: metadataFile.cid } } },
  });
  await updateTask(job.taskId, {
    phase: "completed",
    progress: 1,
    output: {
      export: {
        ipfs: {
          videoFileCid: video.cid,
          videoFileUrl: ipfsUrl(video.cid),
          videoFileGatewayUrl: link(video.cid).gatewayUrl,
          nftMetadataCid: metadataFile.cid,
          nftMetadataUrl: ipfsUrl(metadataFile.cid),
          nftMetadataGatewayUrl: link(metadataFile.cid).gatewayUrl,
          ...(pinned ? { pinned } : {}),
        },
      },
    },
  });
  return { ok: true };
}
