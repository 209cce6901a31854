"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { Button, IconButton } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ConfirmRemoval } from "@/components/ui/confirm";
import { Field, Input } from "@/components/ui/field";
import { ListChecksIcon, TrashIcon } from "@/components/ui/icons";
import { FormErrors, LoadingState } from "@/components/ui/states";
import { TimeAgo } from "@/components/ui/time-ago";
import { ApiRequestError } from "@/lib/api/client";
import type { TextTrack } from "@/lib/assets/schema";
import { useAddTextTrack, useDeleteTextTrack, useTextTracks } from "@/lib/client/asset-hooks";

/** A language tag as players take it: en, pt-BR, zh-Hans. */
const LANGUAGE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** Subtitles and captions of an asset: the files there are, one more from a .vtt or .srt, and removing one. */
export function CaptionsCard({ assetId }: { assetId: string }) {
  const tracks = useTextTracks(assetId);
  const remove = useDeleteTextTrack(assetId);
  const [removing, setRemoving] = useState<TextTrack | null>(null);
  return (
    <Card>
      <CardHeader
        icon={<ListChecksIcon className="size-4" />}
        title="Captions"
        description="Subtitle files (WebVTT or SubRip) viewers can turn on in the player."
      />
      {tracks.isPending ? (
        <LoadingState label="Loading captions…" compact />
      ) : tracks.error ? (
        <CardBody>
          <FormErrors error={tracks.error} />
        </CardBody>
      ) : tracks.data.length > 0 ? (
        <ul aria-label="Captions" className="divide-y divide-zinc-100 text-sm">
          {tracks.data.map((track) => (
            <li key={track.id} data-testid="caption-track" className="flex items-center gap-3 px-5 py-2.5">
              <span className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-700">{track.language}</span>
              <span className="min-w-0 flex-1">
                <a href={track.url} target="_blank" rel="noreferrer" className="block truncate font-medium text-zinc-900 hover:text-indigo-600">
                  {track.name || track.language}
                </a>
                <span className="text-xs text-zinc-500">
                  {track.format.toUpperCase()} · added <TimeAgo at={track.createdAt} />
                </span>
              </span>
              <IconButton
                label={`Remove ${track.name || track.language}`}
                onClick={() => setRemoving(track)}
                className="p-1.5 text-zinc-400 hover:bg-red-50 hover:text-red-600"
              >
                <TrashIcon className="size-4" />
              </IconButton>
            </li>
          ))}
        </ul>
      ) : (
        <CardBody>
          <p className="text-sm text-zinc-500">No captions yet.</p>
        </CardBody>
      )}
      <AddCaptions assetId={assetId} />
      <ConfirmRemoval item={removing} onClose={() => setRemoving(null)} remove={remove} title="Remove captions?" confirmLabel="Remove">
        The <strong className="font-semibold text-zinc-900">{removing?.name || removing?.language}</strong> captions leave the player and the API. This cannot
        be undone.
      </ConfirmRemoval>
    </Card>
  );
}

function AddCaptions({ assetId }: { assetId: string }) {
  const add = useAddTextTrack(assetId);
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [language, setLanguage] = useState("");
  const [name, setName] = useState("");
  const [localError, setLocalError] = useState<Error | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.reset();
    const problems: string[] = [];
    if (!file) problems.push("Choose a .vtt or .srt file.");
    else if (!/\.(vtt|srt)$/i.test(file.name)) problems.push("The file must be WebVTT (.vtt) or SubRip (.srt).");
    if (!LANGUAGE.test(language.trim())) problems.push("Language must be a language code, like en or pt-BR.");
    setLocalError(problems.length ? new ApiRequestError(422, problems) : null);
    if (problems.length || !file) return;
    add.mutate(
      { file, language: language.trim(), name: name.trim() || undefined },
      {
        onSuccess: () => {
          setFile(null);
          setName("");
          setLanguage("");
          if (fileRef.current) fileRef.current.value = "";
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Add captions" className="space-y-3 border-t border-zinc-100 px-5 py-4">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-[6rem_1fr]">
        <Field label="Language" htmlFor={`${id}-language`}>
          <Input id={`${id}-language`} value={language} onChange={(e) => setLanguage(e.target.value)} placeholder="en" spellCheck={false} />
        </Field>
        <Field label="Name" htmlFor={`${id}-name`} optional>
          <Input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} placeholder="English" />
        </Field>
      </div>
      <Field label="File" htmlFor={`${id}-file`}>
        <input
          ref={fileRef}
          id={`${id}-file`}
          type="file"
          accept=".vtt,.srt,text/vtt,application/x-subrip"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          className="block w-full text-sm text-zinc-600 file:mr-3 file:rounded-md file:border-0 file:bg-zinc-100 file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-zinc-800 hover:file:bg-zinc-200"
        />
      </Field>
      <FormErrors error={localError ?? add.error} />
      <div className="flex justify-end">
        <Button type="submit" pending={add.isPending}>
          Add captions
        </Button>
      </div>
    </form>
  );
}
