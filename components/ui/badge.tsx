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

/** The four states of a stream's pill: its words, colours and dot (live pings, starting pulses). */
const STREAM_STATES = {
  live: { label: "Live", pill: "bg-emerald-50 text-emerald-700 ring-emerald-600/20", dot: "bg-emerald-500", ping: "bg-emerald-400" },
  starting: { label: "Starting", pill: "bg-indigo-50 text-indigo-700 ring-indigo-600/20", dot: "animate-pulse bg-indigo-500" },
  suspended: { label: "Suspended", pill: "bg-amber-50 text-amber-800 ring-amber-600/20", dot: "bg-amber-500" },
  idle: { label: "Idle", pill: "bg-zinc-100 text-zinc-600 ring-zinc-500/15", dot: "bg-zinc-400" },
} satisfies Record<string, { label: string; pill: string; dot: string; ping?: string }>;

/** A stream's state at a glance: live beats starting (an encoder connected, not yet playable) beats suspended beats idle. */
export function StreamStatus({ isActive, starting, suspended, testId }: { isActive: boolean; starting?: boolean; suspended: boolean; testId?: string }) {
  const state: { label: string; pill: string; dot: string; ping?: string } =
    STREAM_STATES[isActive ? "live" : starting ? "starting" : suspended ? "suspended" : "idle"];
  return (
    <span
      data-testid={testId}
      className={cx("inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset", state.pill)}
    >
      <span className="relative flex size-2">
        {state.ping && <span className={cx("absolute inline-flex size-full animate-ping rounded-full opacity-75", state.ping)} />}
        <span className={cx("relative inline-flex size-2 rounded-full", state.dot)} />
      </span>
      {state.label}
    </span>
  );
}
