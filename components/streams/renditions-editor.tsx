"use client";

import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/cx";
import { Input } from "@/components/ui/field";
import { CheckIcon, PlusIcon, XIcon } from "@/components/ui/icons";
import { ApiRequestError } from "@/lib/api/client";
import { formatBitrate } from "@/lib/client/format";
import { RENDITION_PRESETS } from "@/lib/client/renditions";
import type { Profile } from "@/lib/streams/schema";

/** A custom rendition as typed: strings until submitted; bitrate in kbps, as encoders show it. */
interface CustomRow {
  key: number;
  name: string;
  width: string;
  height: string;
  kbps: string;
  fps: string;
}

/** The columns of a custom rendition row: its field, the column's label, and the input's accessible name. */
const CUSTOM_FIELDS: { field: Exclude<keyof CustomRow, "key">; label: string; aria: string; placeholder: string }[] = [
  { field: "name", label: "Name", aria: "name", placeholder: "1080p" },
  { field: "width", label: "Width", aria: "width", placeholder: "1920" },
  { field: "height", label: "Height", aria: "height", placeholder: "1080" },
  { field: "kbps", label: "Bitrate (kbps)", aria: "bitrate in kbps", placeholder: "6000" },
  { field: "fps", label: "FPS", aria: "frames per second", placeholder: "30" },
];

let rowKey = 0;
const newRow = (): CustomRow => ({ key: ++rowKey, name: "", width: "", height: "", kbps: "", fps: "30" });

/** The renditions as the form holds them: the presets ticked, and custom rows as typed. */
export interface RenditionChoice {
  presets: ReadonlySet<string>;
  custom: CustomRow[];
}

const isPreset = (p: Profile) =>
  RENDITION_PRESETS.some((q) => q.name === p.name && q.width === p.width && q.height === p.height && q.bitrate === p.bitrate && q.fps === p.fps);

/** A stream's renditions in the form: presets as ticks, anything else as custom rows. */
export function choiceOf(profiles: readonly Profile[]): RenditionChoice {
  return {
    presets: new Set(profiles.filter(isPreset).map((p) => p.name)),
    custom: profiles
      .filter((p) => !isPreset(p))
      .map((p) => ({ key: ++rowKey, name: p.name, width: String(p.width), height: String(p.height), kbps: String(p.bitrate / 1000), fps: String(p.fps) })),
  };
}

export const ALL_PRESETS: RenditionChoice = { presets: new Set(RENDITION_PRESETS.map((p) => p.name)), custom: [] };

/** The profiles the form gives, or an error (as the API would answer) saying what to fix. */
export function profilesOf(choice: RenditionChoice): Profile[] {
  const profiles = [...RENDITION_PRESETS.filter((p) => choice.presets.has(p.name)), ...choice.custom.map(toProfile)];
  const names = profiles.map((p) => p.name);
  const clash = names.find((n, i) => n === "source" || names.indexOf(n) !== i);
  if (clash) {
    throw new ApiRequestError(422, [
      clash === "source" ? "“source” is the name of the original quality; pick another name." : `Two renditions are named “${clash}”; give each its own name.`,
    ]);
  }
  return profiles;
}

function toProfile(row: CustomRow, index: number): Profile {
  const number = (value: string, what: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new ApiRequestError(422, [`Custom rendition ${index + 1}: ${what} must be a whole number above 0.`]);
    return n;
  };
  const width = number(row.width, "width");
  const height = number(row.height, "height");
  return {
    name: row.name.trim() || `${height}p`,
    width,
    height,
    bitrate: number(row.kbps, "bitrate") * 1000,
    fps: number(row.fps, "frame rate"),
  };
}

/** The renditions of a stream: one-click presets plus custom rows (the new-stream form and the edit dialog). */
export function RenditionsEditor({ value, onChange }: { value: RenditionChoice; onChange: (next: RenditionChoice) => void }) {
  const { presets, custom } = value;
  const togglePreset = (presetName: string) => {
    const next = new Set(presets);
    if (next.has(presetName)) next.delete(presetName);
    else next.add(presetName);
    onChange({ presets: next, custom });
  };
  const setCustom = (rows: CustomRow[]) => onChange({ presets, custom: rows });
  const updateRow = (key: number, patch: Partial<CustomRow>) => setCustom(custom.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const total = presets.size + custom.length;

  return (
    <fieldset>
      <legend className="text-sm font-medium text-zinc-800">Renditions</legend>
      <p className="mt-0.5 text-xs text-zinc-500">
        Viewers&apos; players switch between these to match their connection. The original quality is always offered as &ldquo;source&rdquo;.
      </p>
      <div className="mt-3 grid gap-2.5 sm:grid-cols-3">
        {RENDITION_PRESETS.map((preset) => {
          const checked = presets.has(preset.name);
          return (
            <label
              key={preset.name}
              className={cx(
                "relative flex cursor-pointer flex-col rounded-xl px-4 py-3 ring-1 transition-colors ring-inset",
                checked ? "bg-indigo-50/60 ring-2 ring-indigo-600" : "bg-white ring-zinc-200 hover:bg-zinc-50",
              )}
            >
              <input type="checkbox" className="sr-only" checked={checked} onChange={() => togglePreset(preset.name)} aria-label={`${preset.name} preset`} />
              <span className="flex items-center justify-between">
                <span className="text-base font-semibold text-zinc-900">{preset.name}</span>
                <span className={cx("flex size-5 items-center justify-center rounded-full", checked ? "bg-indigo-600 text-white" : "ring-1 ring-zinc-300")}>
                  {checked && <CheckIcon className="size-3.5" strokeWidth={3} />}
                </span>
              </span>
              <span className="mt-1 text-xs text-zinc-600">
                {preset.width}×{preset.height}
              </span>
              <span className="text-xs text-zinc-500">
                {formatBitrate(preset.bitrate)} · {preset.fps} fps
              </span>
            </label>
          );
        })}
      </div>

      {custom.length > 0 && (
        <div className="mt-4 space-y-2">
          <div className="hidden grid-cols-[1.3fr_1fr_1fr_1.2fr_0.8fr_auto] gap-2 px-0.5 text-xs font-medium text-zinc-500 sm:grid">
            {CUSTOM_FIELDS.map(({ field, label }) => (
              <span key={field}>{label}</span>
            ))}
            <span className="w-8" />
          </div>
          {custom.map((row, i) => (
            <div
              key={row.key}
              className="grid grid-cols-2 gap-2 rounded-lg bg-zinc-50 p-2 sm:grid-cols-[1.3fr_1fr_1fr_1.2fr_0.8fr_auto] sm:bg-transparent sm:p-0"
            >
              {CUSTOM_FIELDS.map(({ field, label, aria, placeholder }) => (
                <label key={field} className="block">
                  <span className="mb-1 block text-xs text-zinc-500 sm:sr-only">{label}</span>
                  <Input
                    aria-label={`Custom rendition ${i + 1} ${aria}`}
                    placeholder={placeholder}
                    inputMode={field === "name" ? undefined : "numeric"}
                    value={row[field]}
                    onChange={(e) => updateRow(row.key, { [field]: e.target.value })}
                  />
                </label>
              ))}
              <Button
                variant="ghost"
                className="self-end sm:w-9 sm:px-0"
                aria-label={`Remove custom rendition ${i + 1}`}
                onClick={() => setCustom(custom.filter((r) => r.key !== row.key))}
              >
                <XIcon className="size-4" />
                <span className="sm:hidden">Remove</span>
              </Button>
            </div>
          ))}
        </div>
      )}

      <div className="mt-3 flex items-center justify-between">
        <Button variant="ghost" size="sm" onClick={() => setCustom([...custom, newRow()])}>
          <PlusIcon /> Add custom rendition
        </Button>
        <span className="text-xs text-zinc-500">{total === 0 ? "Source only" : `Source + ${total} rendition${total === 1 ? "" : "s"}`}</span>
      </div>
    </fieldset>
  );
}
