import type { Task } from "@/lib/tasks/schema";

/**
 * Reading a task's `params` and `output`: free-form objects on the API, so every
 * field is checked for its type before it is shown.
 */

type Fields = Record<string, unknown>;
const fields = (v: unknown): Fields | undefined => (v && typeof v === "object" && !Array.isArray(v) ? (v as Fields) : undefined);
const text = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);

export type TaskKind = "upload" | "import" | "export-ipfs" | "export-url" | "transcode" | "clip";

export interface TaskDescription {
  kind: TaskKind;
  title: string;
  /** What it works on or towards: the URL imported from, where an export goes. */
  detail?: string;
}

/** An upload is an import task of an uploaded file; an import has a URL. */
export function describeTask(task: Task): TaskDescription {
  switch (task.type) {
    case "import": {
      const url = text(fields(task.params.import)?.url);
      return url ? { kind: "import", title: "Import from URL", detail: url } : { kind: "upload", title: "Upload", detail: "Processing an uploaded file" };
    }
    case "export": {
      const spec = fields(task.params.export);
      const custom = fields(spec?.custom);
      if (custom) {
        const url = text(custom.url);
        return { kind: "export-url", title: "Export to URL", detail: url && `${text(custom.method) ?? "PUT"} ${url}` };
      }
      const pinned = fields(fields(spec?.ipfs)?.pinning);
      return { kind: "export-ipfs", title: "Export to IPFS", detail: pinned ? "Pinned with your pinning service" : "Added to Castline’s IPFS node" };
    }
    case "upload":
      return { kind: "upload", title: "Upload" };
    case "transcode":
      return { kind: "transcode", title: "Transcode" };
    case "transcode-file": {
      const ladder = fields(task.params.transcode)?.profiles;
      const names = Array.isArray(ladder) ? ladder.map((p) => text(fields(p)?.name)).filter(Boolean) : [];
      return { kind: "transcode", title: "Renditions", detail: names.length ? names.join(", ") : undefined };
    }
    case "clip": {
      const range = fields(fields(task.params.clip)?.clipStrategy);
      const ms = typeof range?.endTime === "number" && typeof range.startTime === "number" ? range.endTime - range.startTime : undefined;
      return { kind: "clip", title: "Clip", detail: ms !== undefined ? `${(ms / 1000).toFixed(1)} s of ${text(range?.playbackId) ?? "a video"}` : undefined };
    }
  }
}

export interface IpfsExportOutput {
  videoFileCid: string;
  videoFileUrl?: string;
  videoFileGatewayUrl?: string;
  nftMetadataCid?: string;
  nftMetadataUrl?: string;
  nftMetadataGatewayUrl?: string;
}

export interface UrlExportOutput {
  url?: string;
  method?: string;
  status?: number;
}

/** What a finished export produced: `output.export.ipfs` or `output.export.custom`. */
export function exportOutput(task: Task): { ipfs?: IpfsExportOutput; custom?: UrlExportOutput } {
  const out = fields(fields(task.output)?.export);
  const ipfs = fields(out?.ipfs);
  const custom = fields(out?.custom);
  const videoFileCid = text(ipfs?.videoFileCid);
  return {
    ipfs: videoFileCid
      ? {
          videoFileCid,
          videoFileUrl: text(ipfs?.videoFileUrl),
          videoFileGatewayUrl: text(ipfs?.videoFileGatewayUrl),
          nftMetadataCid: text(ipfs?.nftMetadataCid),
          nftMetadataUrl: text(ipfs?.nftMetadataUrl),
          nftMetadataGatewayUrl: text(ipfs?.nftMetadataGatewayUrl),
        }
      : undefined,
    custom: custom ? { url: text(custom.url), method: text(custom.method), status: typeof custom.status === "number" ? custom.status : undefined } : undefined,
  };
}
