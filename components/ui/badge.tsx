import type { ReactNode } from "react";
import { cx } from "./cx";

type Tone = "neutral" | "indigo" | "green" | "amber" | "red";

const tones: Record<Tone, string> = {
  neutral: "bg-zinc-100 text-zinc-700 ring-zinc-200",
  indigo: "bg-indigo-50 text-indigo-700 ring-indigo-200",
  green: "bg-emerald-50 text-emerald-700 ring-emerald-200",
  amber: "bg-amber-50 text-amber-800 ring-amber-200",
  red: "bg-red-50 text-red-700 ring-red-200",
};

export function Badge({ tone = "neutral", children, className }: { tone?: Tone; children: ReactNode; className?: string }) {
  return (
    <span className={cx("inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset", tones[tone], className)}>
      {children}
    </span>
  );
}

/** A stream's state at a glance: live beats starting (an encoder connected, not yet playable) beats suspended beats idle. */
export function StreamStatus({ isActive, starting, suspended, testId }: { isActive: boolean; starting?: boolean; suspended: boolean; testId?: string }) {
  if (isActive) {
    return (
      <span
        data-testid={testId}
        className="inline-flex items-center gap-1.5 rounded-full bg-emerald-50 px-2.5 py-0.5 text-xs font-semibold text-emerald-700 ring-1 ring-inset ring-emerald-600/20"
      >
        <span className="relative flex size-2">
          <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-75" />
          <span className="relative inline-flex size-2 rounded-full bg-emerald-500" />
        </span>
        Live
      </span>
    );
  }
  if (starting) {
    return (
      <span
        data-testid={testId}
        className="inline-flex items-center gap-1.5 rounded-full bg-indigo-50 px-2.5 py-0.5 text-xs font-semibold text-indigo-700 ring-1 ring-inset ring-indigo-600/20"
      >
        <span className="size-2 animate-pulse rounded-full bg-indigo-500" />
        Starting
      </span>
    );
  }
  if (suspended) {
    return (
      <span
        data-testid={testId}
        className="inline-flex items-center gap-1.5 rounded-full bg-amber-50 px-2.5 py-0.5 text-xs font-semibold text-amber-800 ring-1 ring-inset ring-amber-600/20"
      >
        <span className="size-2 rounded-full bg-amber-500" />
        Suspended
      </span>
    );
  }
  return (
    <span
      data-testid={testId}
      className="inline-flex items-center gap-1.5 rounded-full bg-zinc-100 px-2.5 py-0.5 text-xs font-semibold text-zinc-600 ring-1 ring-inset ring-zinc-500/15"
    >
      <span className="size-2 rounded-full bg-zinc-400" />
      Idle
    </span>
  );
}
