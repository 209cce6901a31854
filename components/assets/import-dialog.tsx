"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Field, Input, UrlInput } from "@/components/ui/field";
import { FormFooter } from "@/components/ui/form-footer";
import { Modal, ModalBody } from "@/components/ui/modal";
import { FormErrors } from "@/components/ui/states";
import { ApiRequestError } from "@/lib/api/client";
import { useImportAsset } from "@/lib/client/asset-hooks";

/** The file name at the end of a URL, as a name to suggest ("launch.mp4"). */
function nameFromUrl(url: string): string {
  try {
    const last = new URL(url).pathname.split("/").filter(Boolean).pop();
    return last ? decodeURIComponent(last) : "";
  } catch {
    return "";
  }
}

export function ImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Import a video from a URL"
      description="Castline downloads the file in the background and processes it like an upload."
    >
      <ImportForm onClose={onClose} />
    </Modal>
  );
}

function ImportForm({ onClose }: { onClose: () => void }) {
  const router = useRouter();
  const importAsset = useImportAsset();
  const [url, setUrl] = useState("");
  const [name, setName] = useState("");
  const [localError, setLocalError] = useState<Error | null>(null);
  const suggested = nameFromUrl(url.trim());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const finalName = name.trim() || suggested;
    const problems = [!url.trim() && "Enter the URL of the video file.", !finalName && "Give the video a name."].filter((p): p is string => Boolean(p));
    setLocalError(problems.length ? new ApiRequestError(422, problems) : null);
    if (problems.length) return;
    importAsset.mutate({ url: url.trim(), name: finalName }, { onSuccess: ({ asset }) => router.push(`/assets/${asset.id}`) });
  };

  return (
    <form onSubmit={submit} noValidate>
      <ModalBody>
        <FormErrors error={localError ?? importAsset.error} />
        <Field label="Video URL" htmlFor="import-url" hint="A direct link to the file (http or https), not a page that plays it.">
          <UrlInput id="import-url" value={url} onChange={setUrl} placeholder="https://example.com/videos/launch.mp4" autoFocus />
        </Field>
        <Field label="Name" htmlFor="import-name" hint={suggested && !name.trim() ? `Leave empty to use “${suggested}”.` : undefined}>
          <Input id="import-name" value={name} onChange={(e) => setName(e.target.value)} placeholder={suggested || "Product launch"} maxLength={500} />
        </Field>
      </ModalBody>
      <FormFooter submit="Import video" pending={importAsset.isPending} onCancel={onClose} />
    </form>
  );
}
