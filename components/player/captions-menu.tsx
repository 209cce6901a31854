"use client";

import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { ControlMenu } from "./control-menu";

/** One caption track of the video: its place in `video.textTracks`. */
interface Caption {
  index: number;
  label: string;
  language: string;
}

export interface Captions {
  captions: Caption[];
  /** The chosen track's index in `video.textTracks`; -1 is off. */
  chosen: number;
  /** The chosen track's cues on screen now. */
  cues: VTTCue[];
  choose: (index: number) => void;
}

const isCaption = (track: TextTrack) => track.kind === "subtitles" || track.kind === "captions";

/**
 * The video's caption tracks as the browser holds them: hls.js makes one per subtitles
 * rendition of the master, and Safari's own HLS does the same, so one menu serves both.
 * The chosen track is "hidden", not "showing": the player draws its cues itself, above
 * its controls, where the browser's own rendering would sit under them.
 */
export function useCaptions(videoRef: RefObject<HTMLVideoElement | null>): Captions {
  const [captions, setCaptions] = useState<Caption[]>([]);
  const [chosen, setChosen] = useState(-1);
  const [cues, setCues] = useState<VTTCue[]>([]);

  useEffect(() => {
    const tracks = videoRef.current?.textTracks;
    if (!tracks) return;
    let watched: TextTrack | undefined;
    const showCues = () => setCues([...(watched?.activeCues ?? [])] as VTTCue[]);
    const read = () => {
      const all = [...tracks];
      setCaptions(all.flatMap((t, index) => (isCaption(t) ? [{ index, label: t.label || t.language || `Track ${index + 1}`, language: t.language }] : [])));
      const index = all.findIndex((t) => isCaption(t) && t.mode !== "disabled");
      setChosen(index);
      if (watched !== all[index]) {
        watched?.removeEventListener("cuechange", showCues);
        watched = all[index];
        watched?.addEventListener("cuechange", showCues);
        showCues();
      }
    };
    read();
    tracks.addEventListener("addtrack", read);
    tracks.addEventListener("removetrack", read);
    tracks.addEventListener("change", read);
    return () => {
      watched?.removeEventListener("cuechange", showCues);
      tracks.removeEventListener("addtrack", read);
      tracks.removeEventListener("removetrack", read);
      tracks.removeEventListener("change", read);
    };
  }, [videoRef]);

  const choose = useCallback(
    (index: number) => {
      const tracks = videoRef.current?.textTracks;
      if (!tracks) return;
      // The others disabled: hls.js then loads only the chosen one's cues.
      [...tracks].forEach((t, i) => {
        if (isCaption(t)) t.mode = i === index ? "hidden" : "disabled";
      });
      setChosen(index);
    },
    [videoRef],
  );

  return { captions, chosen, cues, choose };
}

/** The chosen track's cues, bottom centre, raised above the controls while they show. */
export function CaptionText({ cues, raised }: { cues: VTTCue[]; raised: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // The browser's own WebVTT parse of the cue text (<i>, <b>, <u>, <c>...), never markup of ours.
    ref.current?.replaceChildren(
      ...cues.map((cue) => {
        const line = document.createElement("span");
        line.className = "rounded bg-black/75 px-2 py-0.5 whitespace-pre-line [box-decoration-break:clone]";
        line.append(cue.getCueAsHTML());
        const block = document.createElement("div");
        block.append(line);
        return block;
      }),
    );
  }, [cues]);
  return (
    <div
      ref={ref}
      data-testid="player-captions"
      aria-live="off"
      className={`pointer-events-none absolute inset-x-0 flex flex-col items-center gap-1 px-[8%] text-center text-[clamp(14px,4.2cqw,34px)] leading-snug text-white transition-[bottom] duration-300 ${
        raised ? "bottom-24" : "bottom-[6%]"
      }`}
    />
  );
}

function CaptionsIcon({ className, on }: { className?: string; on: boolean }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} className={className} aria-hidden="true">
      <rect x="3" y="5" width="18" height="14" rx="2.5" fill={on ? "currentColor" : "none"} />
      <path d="M10.5 10.2a2.2 2.2 0 1 0 0 3.6M17 10.2a2.2 2.2 0 1 0 0 3.6" stroke={on ? "black" : "currentColor"} strokeLinecap="round" />
    </svg>
  );
}

/** The CC button and its menu: Off, then each caption track. Hidden when the video has none. */
export function CaptionsMenu({
  captions: { captions, chosen: showing, choose: show },
  onOpenChange,
}: {
  captions: Captions;
  /** Tells the player to keep its controls up while the menu is open. */
  onOpenChange: (open: boolean) => void;
}) {
  if (!captions.length) return null;
  const choices = [{ value: -1, label: "Off" }, ...captions.map((c) => ({ value: c.index, label: c.label, lang: c.language || undefined }))];
  const chosen = choices.find((c) => c.value === showing) ?? choices[0];
  return (
    <ControlMenu
      title="Captions"
      buttonLabel={`Captions: ${chosen.label}`}
      choices={choices}
      checked={showing}
      onChoose={show}
      onOpenChange={onOpenChange}
      icon={() => <CaptionsIcon className="size-6" on={showing !== -1} />}
    />
  );
}
