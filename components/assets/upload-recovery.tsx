"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm";
import { TrashIcon, UploadIcon } from "@/components/ui/icons";
import type { Asset } from "@/lib/assets/schema";
import { useDeleteAsset } from "@/lib/client/asset-hooks";
import { formatBytes, percent } from "./asset-info";
import { ProgressBar } from "./progress-bar";
import { ChooseAgain } from "./upload-panel";
import { uploadQueue, useUploads } from "./upload-queue";

/**
 * The page of a video still waiting for its file: where its upload from this browser stands,
 * and, when a reload or a crashed tab interrupted it, the way to continue it (the same file
 * again, from where the server has it, into this video) or to give up and delete the video.
 */
export function UploadRecoveryCard({ asset }: { asset: Asset }) {
  const uploads = useUploads();
  const router = useRouter();
  const remove = useDeleteAsset();
  const [confirming, setConfirming] = useState(false);
  useEffect(() => uploadQueue.restore(), []);
  const upload = uploads.find((u) => u.assetId === asset.id);
  const fraction = upload && upload.size > 0 ? upload.bytesUploaded / upload.size : 0;
  const stopped = upload?.state === "interrupted" || upload?.state === "failed";

  return (
    <Card>
      <CardHeader
        icon={<UploadIcon className="size-4" />}
        title="Upload"
        description={
          !upload
            ? "No upload to this video is going on in this browser."
            : upload.state === "uploaded"
              ? "The file is here: the video is being processed."
              : stopped
                ? `The upload of ${upload.name} stopped at ${percent(fraction)}%.`
                : `${upload.name} is uploading from this browser.`
        }
      />
      <CardBody className="space-y-4">
        {upload && upload.state !== "uploaded" && (
          <div>
            <ProgressBar value={fraction} tone={stopped ? "amber" : "indigo"} label={`Upload of ${upload.name}`} />
            <p className="mt-1.5 text-xs text-zinc-500 tabular-nums">
              {percent(fraction)}% · {formatBytes(upload.bytesUploaded)} of {formatBytes(upload.size)}
            </p>
          </div>
        )}
        {upload?.state === "interrupted" && (
          <p className="text-sm text-zinc-600">
            Choose the same file again ({upload.name}, {formatBytes(upload.size)}): the upload continues where it stopped, into this video.
          </p>
        )}
        {!upload && (
          <p className="text-sm text-zinc-600">
            If it was started in another browser, finish it there. Without the file, delete this video and upload it again.
          </p>
        )}
        {upload?.errors && (
          <ul role="alert" className="space-y-0.5 text-sm text-red-700">
            {upload.errors.map((message, i) => (
              <li key={i}>{message}</li>
            ))}
          </ul>
        )}
        <div className="flex flex-wrap gap-2">
          {upload?.state === "interrupted" && <ChooseAgain upload={upload} label="Choose the file to continue" variant="primary" />}
          {(!upload || stopped) && (
            <Button variant="dangerGhost" size="sm" onClick={() => setConfirming(true)}>
              <TrashIcon /> Delete this video
            </Button>
          )}
        </div>
      </CardBody>
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Delete this video?"
        confirmLabel="Delete video"
        action={remove}
        onConfirm={() =>
          remove.mutate(asset.id, {
            onSuccess: () => {
              uploadQueue.forgetAsset(asset.id);
              router.push("/assets");
            },
          })
        }
      >
        <strong className="font-semibold text-zinc-900">{asset.name}</strong> has no video yet. It will be deleted, with what was uploaded of it. This cannot be
        undone.
      </ConfirmDialog>
    </Card>
  );
}
