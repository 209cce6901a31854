"use client";

import type { ChangeEvent, ReactNode } from "react";

/** A round, icon-only control on the dark overlay. */
export const controlButton =
  "relative inline-flex size-10 shrink-0 items-center justify-center rounded-full text-white/90 outline-none transition hover:bg-white/15 hover:text-white focus-visible:bg-white/15 focus-visible:ring-2 focus-visible:ring-white/70 active:scale-95";

/** A control of the overlay named for what it does now, its key shortcut in its tooltip ("Pause (k)"). */
export function ControlButton({
  label,
  shortcut,
  onClick,
  className = "",
  children,
}: {
  label: string;
  shortcut: string;
  onClick: () => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button type="button" className={`${controlButton} ${className}`} onClick={onClick} aria-label={label} title={`${label} (${shortcut})`}>
      {children}
    </button>
  );
}

const percent = (value: number, max: number) => `${max > 0 ? Math.min(100, Math.max(0, (value / max) * 100)) : 0}%`;

/**
 * A native range input (so arrows, Home/End and screen readers work) drawn as a thin
 * track that thickens on hover, with what is buffered behind the filled part.
 */
export function Slider({
  label,
  value,
  max,
  step,
  buffered,
  valueText,
  onChange,
  className = "",
  fill = "bg-white",
}: {
  label: string;
  value: number;
  max: number;
  step: number;
  buffered?: number;
  valueText?: string;
  onChange: (value: number) => void;
  className?: string;
  fill?: string;
}) {
  return (
    <div className={`group/slider relative flex h-5 items-center ${className}`}>
      <div className="relative h-1 w-full rounded-full bg-white/25 transition-[height] group-hover/slider:h-1.5 group-has-focus-visible/slider:h-1.5">
        {buffered !== undefined && <div className="absolute inset-y-0 left-0 rounded-full bg-white/35" style={{ width: percent(buffered, max) }} />}
        <div className={`absolute inset-y-0 left-0 rounded-full ${fill}`} style={{ width: percent(value, max) }} />
        <div
          className={`absolute top-1/2 size-3.5 -translate-x-1/2 -translate-y-1/2 scale-0 rounded-full shadow transition-transform group-hover/slider:scale-100 group-has-focus-visible/slider:scale-100 group-has-focus-visible/slider:ring-2 group-has-focus-visible/slider:ring-white/70 ${fill}`}
          style={{ left: percent(value, max) }}
        />
      </div>
      <input
        type="range"
        min={0}
        max={max || 1}
        step={step}
        value={Math.min(value, max || 1)}
        aria-label={label}
        aria-valuetext={valueText}
        onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(Number(event.target.value))}
        className="absolute inset-0 size-full cursor-pointer opacity-0"
      />
    </div>
  );
}

/** 75 -> "1:15", 3725 -> "1:02:05". */
export function formatTime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}
