"use client";

import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { ChevronRightIcon, FilmIcon } from "@/components/ui/icons";
import { FormErrors } from "@/components/ui/states";
import type { Asset } from "@/lib/assets/schema";
import { ApiRequestError } from "@/lib/api/client";
import { useCreateClip } from "@/lib/client/asset-hooks";
import { formatTimecode, parseTimecode } from "./asset-info";

/** Cuts a new asset out of this one, from a start to an end time. */
export function ClipCard({ asset }: { asset: Asset }) {
  const clip = useCreateClip();
  const id = useId();
  const duration = asset.videoSpec?.duration;
  const [start, setStart] = useState("0:00");
  const [end, setEnd] = useState(duration !== undefined ? formatTimecode(Math.min(duration, 10)) : "");
  const [name, setName] = useState("");
  const [localError, setLocalError] = useState<Error | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    clip.reset();
    const from = parseTimecode(start);
    const to = parseTimecode(end);
    const problems: string[] = [];
    if (from === undefined) problems.push("Start is not a time: write seconds (75) or minutes and seconds (1:15).");
    if (to === undefined) problems.push("End is not a time: write seconds (75) or minutes and seconds (1:15).");
    if (from !== undefined && to !== undefined) {
      if (to <= from) problems.push("End must be after start.");
      else if (duration !== undefined && to > duration + 0.05) problems.push(`End must be within the video (${formatTimecode(duration)}).`);
    }
    setLocalError(problems.length ? new ApiRequestError(422, problems) : null);
    if (problems.length || from === undefined || to === undefined) return;
    clip.mutate({
      playbackId: asset.playbackId,
      startTime: Math.round(from * 1000),
      endTime: Math.round(to * 1000),
      name: name.trim() || `${asset.name} (${formatTimecode(from)}–${formatTimecode(to)})`,
    });
  };

  return (
    <Card>
      <CardHeader
        icon={<FilmIcon className="size-4" />}
        title="Trim to clip"
        description="Make a new video from part of this one. This video stays as it is."
      />
      <CardBody>
        <form onSubmit={submit} noValidate className="space-y-4" aria-label="Trim to clip">
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-[7rem_7rem_1fr]">
            <Field label="Start" htmlFor={`${id}-start`}>
              <Input
                id={`${id}-start`}
                value={start}
                onChange={(e) => setStart(e.target.value)}
                inputMode="decimal"
                placeholder="0:00"
                className="tabular-nums"
              />
            </Field>
            <Field label="End" htmlFor={`${id}-end`}>
              <Input id={`${id}-end`} value={end} onChange={(e) => setEnd(e.target.value)} inputMode="decimal" placeholder="0:10" className="tabular-nums" />
            </Field>
            <Field label="Name" htmlFor={`${id}-name`} optional className="col-span-2 sm:col-span-1">
              <Input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} placeholder={`${asset.name} (clip)`} />
            </Field>
          </div>
          <p className="text-xs text-zinc-500">
            Seconds (75) or minutes and seconds (1:15){duration !== undefined && <>, within {formatTimecode(duration)}</>}.
          </p>
          <FormErrors error={localError ?? clip.error} />
          {clip.data && (
            <p
              role="status"
              className="flex items-center gap-1 rounded-lg bg-emerald-50 px-3.5 py-3 text-sm text-emerald-900 ring-1 ring-emerald-200 ring-inset"
            >
              Clip started:
              <Link
                href={`/assets/${clip.data.asset.id}`}
                className="inline-flex items-center font-medium text-emerald-800 underline hover:text-emerald-600"
                data-testid="clip-link"
              >
                {clip.data.asset.name}
                <ChevronRightIcon className="size-4" />
              </Link>
            </p>
          )}
          <div className="flex justify-end">
            <Button type="submit" variant="primary" pending={clip.isPending}>
              Create clip
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
