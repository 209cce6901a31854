"use client";

import { ControlMenu } from "./control-menu";
import { SettingsIcon } from "./icons";
import type { HlsEngine } from "./use-hls";

/** The gear button and its menu: Auto, the source, then each rendition from the tallest. */
export function QualityMenu({
  engine: { qualities, selected, current, selectQuality },
  onOpenChange,
}: {
  engine: HlsEngine;
  /** Tells the player to keep its controls up while the menu is open. */
  onOpenChange: (open: boolean) => void;
}) {
  const playing = qualities.find((q) => q.index === current);
  // "Auto" says what it picked: a height, since "Source" would not say how sharp.
  const picked = playing && (playing.source && playing.height ? `${playing.height}p` : playing.label);
  const choices = [
    { value: -1, label: "Auto", detail: selected === -1 ? picked : undefined },
    ...qualities.map((q) => ({ value: q.index, label: q.label, detail: q.detail })),
  ];
  const chosen = choices.find((q) => q.value === selected) ?? choices[0];
  const hd = (playing?.height ?? 0) >= 720;

  return (
    <ControlMenu
      title="Quality"
      buttonLabel={`Quality: ${chosen.label}${chosen.value === -1 && picked ? ` (${picked})` : ""}`}
      choices={choices}
      checked={selected}
      onChoose={selectQuality}
      onOpenChange={onOpenChange}
      icon={(open) => (
        <>
          <SettingsIcon className={`size-[22px] transition-transform duration-300 ${open ? "rotate-45" : ""}`} />
          {hd && (
            <span className="absolute top-1 right-0.5 rounded-[3px] bg-red-600 px-[3px] text-[8px] leading-[11px] font-bold tracking-wide text-white">HD</span>
          )}
        </>
      )}
    />
  );
}
