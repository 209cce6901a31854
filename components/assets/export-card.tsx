"use client";

import { useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CopyField } from "@/components/ui/copy";
import { cx } from "@/components/ui/cx";
import { Field, Input, Select, UrlInput } from "@/components/ui/field";
import { FormFooter } from "@/components/ui/form-footer";
import { CubeIcon, ExternalLinkIcon, PlusIcon, XIcon } from "@/components/ui/icons";
import { FormErrors, LoadingState } from "@/components/ui/states";
import { TimeAgo } from "@/components/ui/time-ago";
import { exportOutput } from "@/components/tasks/task-info";
import { TaskHeading, TaskPhaseBadge, TaskProgress } from "@/components/tasks/task-status";
import type { Asset } from "@/lib/assets/schema";
import { ApiRequestError } from "@/lib/api/client";
import type { ExportRequest, Pinning } from "@/lib/assets/schema";
import { taskActive, useAssetExports, useExportAsset } from "@/lib/client/asset-hooks";
import { formatHttpStatus } from "@/lib/client/format";
import type { Task } from "@/lib/tasks/schema";
import { ipfsFiles } from "./asset-info";

type Target = "ipfs" | "url";

/** Header names as HTTP allows them (the server checks the same). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~\w-]+$/;

const textareaClass =
  "block w-full rounded-lg border-0 bg-white px-3 py-2 font-mono text-xs leading-relaxed text-zinc-900 shadow-xs ring-1 ring-inset ring-zinc-300 placeholder:text-zinc-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none";

export function ExportCard({ asset }: { asset: Asset }) {
  const [target, setTarget] = useState<Target>("ipfs");
  const ready = asset.status.phase === "ready";
  return (
    <Card>
      <CardHeader
        icon={<CubeIcon className="size-4" />}
        title="Export"
        description="Send a copy of the video to IPFS, or to storage of your own. Exports run in the background."
      />
      {ready ? (
        <>
          <div role="tablist" aria-label="Export to" className="flex gap-1 border-b border-zinc-100 px-5">
            {(
              [
                ["ipfs", "IPFS"],
                ["url", "Your URL"],
              ] as const
            ).map(([value, label]) => (
              <button
                key={value}
                type="button"
                role="tab"
                aria-selected={target === value}
                onClick={() => setTarget(value)}
                className={cx(
                  "-mb-px border-b-2 px-3 py-2.5 text-sm font-medium transition-colors",
                  target === value ? "border-indigo-600 text-indigo-700" : "border-transparent text-zinc-500 hover:text-zinc-800",
                )}
              >
                {label}
              </button>
            ))}
          </div>
          <div role="tabpanel">{target === "ipfs" ? <IpfsExportForm assetId={asset.id} /> : <UrlExportForm assetId={asset.id} />}</div>
        </>
      ) : (
        <CardBody>
          <p className="text-sm text-zinc-500">Exports can start once the video is ready.</p>
        </CardBody>
      )}
    </Card>
  );
}

const EXPORT_STARTED = "Export started: follow it under Exports below.";

type PinningChoice = "none" | "jwt" | "keys";

const PINNING: { value: PinningChoice; label: string; description: string }[] = [
  { value: "none", label: "No pinning service", description: "Added to Castline’s own IPFS node." },
  { value: "jwt", label: "JWT", description: "A Pinata-compatible service pins the files." },
  { value: "keys", label: "API key and secret", description: "Pinata’s older key pair." },
];

function IpfsExportForm({ assetId }: { assetId: string }) {
  const exportAsset = useExportAsset(assetId);
  const [metadata, setMetadata] = useState("");
  const [pinning, setPinning] = useState<PinningChoice>("none");
  const [jwt, setJwt] = useState("");
  const [apiKey, setApiKey] = useState("");
  const [apiSecret, setApiSecret] = useState("");
  const [localError, setLocalError] = useState<Error | null>(null);
  const [started, setStarted] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setStarted(false);
    const problems: string[] = [];
    let nftMetadata: Record<string, unknown> | undefined;
    if (metadata.trim()) {
      try {
        const parsed: unknown = JSON.parse(metadata);
        if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) nftMetadata = parsed as Record<string, unknown>;
        else problems.push('NFT metadata must be a JSON object, like {"name": "…"}.');
      } catch (error) {
        problems.push(`NFT metadata is not valid JSON: ${(error as Error).message}`);
      }
    }
    let credentials: Pinning | undefined;
    if (pinning === "jwt") {
      if (jwt.trim()) credentials = { jwt: jwt.trim() };
      else problems.push("Enter the JWT of your pinning service.");
    } else if (pinning === "keys") {
      if (apiKey.trim() && apiSecret.trim()) credentials = { apiKey: apiKey.trim(), apiSecret: apiSecret.trim() };
      else problems.push("Enter both the API key and the API secret.");
    }
    setLocalError(problems.length ? new ApiRequestError(422, problems) : null);
    if (problems.length) return;

    const request: ExportRequest = { ipfs: { ...(nftMetadata && { nftMetadata }), ...(credentials && { pinning: credentials }) } };
    exportAsset.mutate(request, {
      onSuccess: () => {
        setStarted(true);
        // Secrets are not kept around longer than needed.
        setJwt("");
        setApiSecret("");
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <CardBody className="space-y-5">
        <FormErrors error={localError ?? exportAsset.error} />
        <Field
          label="NFT metadata"
          htmlFor="export-nft-metadata"
          optional
          hint="A JSON object, merged into the default metadata (name, description, animation URL). Leave empty for the defaults."
        >
          <textarea
            id="export-nft-metadata"
            rows={5}
            value={metadata}
            onChange={(e) => setMetadata(e.target.value)}
            spellCheck={false}
            placeholder={'{\n  "description": "Launch keynote, 2025",\n  "properties": { "edition": 1 }\n}'}
            className={textareaClass}
          />
        </Field>

        <fieldset>
          <legend className="mb-1.5 text-sm font-medium text-zinc-800">Pinning</legend>
          <div className="grid gap-2 sm:grid-cols-3">
            {PINNING.map((option) => (
              <label
                key={option.value}
                className={cx(
                  "flex cursor-pointer gap-2.5 rounded-lg px-3 py-2.5 ring-1 ring-inset transition-colors",
                  pinning === option.value ? "bg-indigo-50/60 ring-indigo-300" : "ring-zinc-200 hover:bg-zinc-50",
                )}
              >
                <input
                  type="radio"
                  name="pinning"
                  value={option.value}
                  checked={pinning === option.value}
                  onChange={() => setPinning(option.value)}
                  className="mt-0.5 size-4 shrink-0 accent-indigo-600"
                />
                <span className="min-w-0">
                  <span className="block text-sm font-medium text-zinc-900">{option.label}</span>
                  <span className="block text-xs text-zinc-500">{option.description}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>

        {pinning === "jwt" && (
          <Field label="JWT" htmlFor="export-jwt">
            <Input id="export-jwt" type="password" autoComplete="off" value={jwt} onChange={(e) => setJwt(e.target.value)} className="font-mono" />
          </Field>
        )}
        {pinning === "keys" && (
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="API key" htmlFor="export-api-key">
              <Input id="export-api-key" autoComplete="off" value={apiKey} onChange={(e) => setApiKey(e.target.value)} className="font-mono" />
            </Field>
            <Field label="API secret" htmlFor="export-api-secret">
              <Input
                id="export-api-secret"
                type="password"
                autoComplete="off"
                value={apiSecret}
                onChange={(e) => setApiSecret(e.target.value)}
                className="font-mono"
              />
            </Field>
          </div>
        )}
      </CardBody>
      <FormFooter submit="Export to IPFS" pending={exportAsset.isPending} done={started && EXPORT_STARTED} />
    </form>
  );
}

interface HeaderRow {
  key: number;
  name: string;
  value: string;
}

let headerKey = 0;
const newHeader = (): HeaderRow => ({ key: ++headerKey, name: "", value: "" });

function UrlExportForm({ assetId }: { assetId: string }) {
  const exportAsset = useExportAsset(assetId);
  const [url, setUrl] = useState("");
  const [method, setMethod] = useState<"PUT" | "POST">("PUT");
  const [headers, setHeaders] = useState<HeaderRow[]>([]);
  const [localError, setLocalError] = useState<Error | null>(null);
  const [started, setStarted] = useState(false);

  const updateHeader = (key: number, patch: Partial<HeaderRow>) => setHeaders((rows) => rows.map((row) => (row.key === key ? { ...row, ...patch } : row)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setStarted(false);
    const problems: string[] = [];
    if (!url.trim()) problems.push("Enter the URL to send the video to.");
    const filled = headers.filter((h) => h.name.trim() || h.value.trim());
    for (const h of filled) {
      const name = h.name.trim();
      if (!name) problems.push(`The header with value “${h.value.trim()}” needs a name.`);
      else if (!HEADER_NAME.test(name)) problems.push(`“${name}” is not a valid header name.`);
    }
    setLocalError(problems.length ? new ApiRequestError(422, problems) : null);
    if (problems.length) return;

    exportAsset.mutate(
      {
        custom: {
          url: url.trim(),
          method,
          ...(filled.length && { headers: Object.fromEntries(filled.map((h) => [h.name.trim(), h.value])) }),
        },
      },
      { onSuccess: () => setStarted(true) },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <CardBody className="space-y-5">
        <FormErrors error={localError ?? exportAsset.error} />
        <Field
          label="Destination"
          htmlFor="export-url"
          hint="The MP4 file is the request body. Pre-signed URLs (S3, R2, GCS) work as they are; a query string is not shown back."
        >
          <div className="flex gap-2">
            <div className="w-24 shrink-0">
              <Select aria-label="Method" value={method} onChange={(e) => setMethod(e.target.value as "PUT" | "POST")}>
                <option>PUT</option>
                <option>POST</option>
              </Select>
            </div>
            <div className="min-w-0 flex-1">
              <UrlInput id="export-url" value={url} onChange={setUrl} placeholder="https://storage.example.com/videos/launch.mp4" />
            </div>
          </div>
        </Field>

        <fieldset>
          <legend className="mb-1.5 flex w-full items-baseline justify-between text-sm font-medium text-zinc-800">
            Headers
            <span className="text-xs font-normal text-zinc-400">Optional</span>
          </legend>
          {headers.length > 0 && (
            <div className="mb-2 space-y-2">
              {headers.map((row, i) => (
                <div key={row.key} className="grid grid-cols-[2fr_3fr_auto] gap-2">
                  <Input
                    aria-label={`Header ${i + 1} name`}
                    value={row.name}
                    onChange={(e) => updateHeader(row.key, { name: e.target.value })}
                    placeholder="Authorization"
                    spellCheck={false}
                    className="font-mono"
                  />
                  <Input
                    aria-label={`Header ${i + 1} value`}
                    value={row.value}
                    onChange={(e) => updateHeader(row.key, { value: e.target.value })}
                    placeholder="Bearer …"
                    spellCheck={false}
                    autoComplete="off"
                    className="font-mono"
                  />
                  <Button
                    variant="ghost"
                    className="w-9 px-0"
                    aria-label={`Remove header ${i + 1}`}
                    onClick={() => setHeaders((rows) => rows.filter((r) => r.key !== row.key))}
                  >
                    <XIcon />
                  </Button>
                </div>
              ))}
            </div>
          )}
          <Button variant="ghost" size="sm" className="-ml-2" onClick={() => setHeaders((rows) => [...rows, newHeader()])}>
            <PlusIcon /> Add header
          </Button>
        </fieldset>
      </CardBody>
      <FormFooter submit="Export to URL" pending={exportAsset.isPending} done={started && EXPORT_STARTED} />
    </form>
  );
}

/** Where the latest IPFS export put the asset. */
export function IpfsCard({ asset }: { asset: Asset }) {
  const files = ipfsFiles(asset);
  if (!files) return null;
  return (
    <Card>
      <CardHeader
        icon={<CubeIcon className="size-4" />}
        title="On IPFS"
        description="From the latest IPFS export. A CID names exactly these bytes, wherever they are served from."
      />
      <CardBody className="space-y-4">
        <Cid label="Video CID" cid={files.video.cid} gatewayUrl={files.video.gatewayUrl} testId="ipfs-video-cid" />
        {files.nftMetadata && <Cid label="NFT metadata CID" cid={files.nftMetadata.cid} gatewayUrl={files.nftMetadata.gatewayUrl} testId="ipfs-metadata-cid" />}
      </CardBody>
    </Card>
  );
}

function Cid({ label, cid, gatewayUrl, testId }: { label: string; cid: string; gatewayUrl?: string; testId?: string }) {
  return (
    <div className="min-w-0">
      <div className="mb-1.5 flex items-baseline justify-between gap-3">
        <p className="text-sm font-medium text-zinc-800">{label}</p>
        {gatewayUrl && (
          <a
            href={gatewayUrl}
            target="_blank"
            rel="noreferrer"
            className="inline-flex items-center gap-1 text-xs font-medium text-indigo-600 hover:text-indigo-500"
          >
            Open in gateway <ExternalLinkIcon className="size-3.5" />
          </a>
        )}
      </div>
      <CopyField value={cid} label={label} testId={testId} />
    </div>
  );
}

/** This asset's exports, newest first, following each one live. */
export function ExportsCard({ assetId }: { assetId: string }) {
  const exports = useAssetExports(assetId);
  if (exports.isSuccess && exports.data.length === 0) return null;
  const running = exports.data?.some(taskActive);
  return (
    <Card>
      <CardHeader title="Exports" description={running ? "Following progress as it happens." : "Every export of this video, newest first."} />
      {exports.isPending ? (
        <LoadingState compact label="Loading exports…" />
      ) : !exports.data ? (
        <CardBody>
          <FormErrors error={exports.error} />
        </CardBody>
      ) : (
        <ul aria-label="Exports" className="divide-y divide-zinc-100">
          {exports.data.map((task) => (
            <ExportRow key={task.id} task={task} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function ExportRow({ task }: { task: Task }) {
  const { phase, errorMessage } = task.status;
  const output = exportOutput(task);
  return (
    <li data-testid="export-task" className="px-5 py-4">
      <div className="flex items-start justify-between gap-3">
        <TaskHeading task={task} />
        <div className="flex shrink-0 items-center gap-2">
          <TimeAgo at={task.createdAt} className="hidden text-xs text-zinc-400 sm:inline" />
          <TaskPhaseBadge status={task.status} />
        </div>
      </div>
      {/* Under the text, clear of the icon. */}
      <div className="pl-12">
        <TaskProgress task={task} className="mt-2.5" />
        {phase === "failed" && errorMessage && <p className="mt-2 text-sm text-red-700">{errorMessage}</p>}
        {phase === "completed" && output.ipfs && (
          <div className="mt-3 space-y-3">
            <Cid label="Video CID" cid={output.ipfs.videoFileCid} gatewayUrl={output.ipfs.videoFileGatewayUrl} />
            {output.ipfs.nftMetadataCid && <Cid label="NFT metadata CID" cid={output.ipfs.nftMetadataCid} gatewayUrl={output.ipfs.nftMetadataGatewayUrl} />}
          </div>
        )}
        {phase === "completed" && output.custom && <UrlResult {...output.custom} />}
      </div>
    </li>
  );
}

function UrlResult({ url, method, status }: { url?: string; method?: string; status?: number }) {
  return (
    <p className="mt-2 flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-xs text-zinc-600">
      <span className="min-w-0 truncate font-mono" title={url}>
        {method ?? "PUT"} {url}
      </span>
      {status !== undefined && <Badge tone={status < 300 ? "green" : "red"}>{formatHttpStatus(status)}</Badge>}
    </p>
  );
}
