"use client";

import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from "react";
import { controlButton } from "./controls";
import { CheckIcon } from "./icons";

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
      setCaptions(
        all.flatMap((t, index) => (isCaption(t) ? [{ index, label: t.label || t.language || `Track ${index + 1}`, language: t.language }] : [])),
      );
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
      <path
        d="M10.5 10.2a2.2 2.2 0 1 0 0 3.6M17 10.2a2.2 2.2 0 1 0 0 3.6"
        stroke={on ? "black" : "currentColor"}
        strokeLinecap="round"
      />
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
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => onOpenChange(open), [open, onOpenChange]);
  useEffect(() => () => onOpenChange(false), [onOpenChange]);

  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelector<HTMLElement>('[aria-checked="true"]')?.focus();
    const close = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", close);
    return () => document.removeEventListener("pointerdown", close);
  }, [open]);

  if (!captions.length) return null;
  const items = [{ index: -1, label: "Off", language: "" }, ...captions];
  const chosen = items.find((c) => c.index === showing) ?? items[0];

  const closeMenu = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  const onMenuKey = (event: KeyboardEvent) => {
    const options = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]') ?? [])];
    const at = options.indexOf(document.activeElement as HTMLElement);
    const go = (i: number) => options[(i + options.length) % options.length]?.focus();
    if (event.key === "ArrowDown") go(at + 1);
    else if (event.key === "ArrowUp") go(at - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(options.length - 1);
    else if (event.key === "Escape") closeMenu();
    else {
      if (event.key === "Tab") setOpen(false);
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        className={controlButton}
        aria-label={`Captions: ${chosen.label}`}
        title="Captions"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(event) => {
          if (event.key === "ArrowUp" || event.key === "ArrowDown") {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <CaptionsIcon className="size-6" on={showing !== -1} />
      </button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label="Captions"
          onKeyDown={onMenuKey}
          className="absolute right-0 bottom-full mb-3 max-h-[calc(100cqh-5.5rem)] w-48 overflow-y-auto rounded-xl bg-zinc-900/90 py-1.5 text-sm text-white shadow-2xl ring-1 ring-white/10 backdrop-blur-md"
        >
          <p className="px-3.5 pt-1 pb-1.5 text-[11px] font-semibold tracking-wider text-white/50 uppercase">Captions</p>
          {items.map((c) => {
            const checked = c.index === showing;
            return (
              <button
                key={c.index}
                type="button"
                role="menuitemradio"
                aria-checked={checked}
                tabIndex={checked ? 0 : -1}
                lang={c.language || undefined}
                onClick={() => {
                  show(c.index);
                  closeMenu();
                }}
                className="flex w-full items-center gap-2.5 px-3.5 py-2 text-left outline-none hover:bg-white/10 focus-visible:bg-white/15"
              >
                <CheckIcon className={`size-4 shrink-0 ${checked ? "text-white" : "invisible"}`} />
                <span className={checked ? "font-semibold" : "text-white/85"}>{c.label}</span>
              </button>
            );
          })}
        </div>
      )}
    </div>
  );
}
