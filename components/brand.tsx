import { useId } from "react";
import { cx } from "./ui/cx";

/** The Castline mark: a broadcast signal on an indigo tile, then the word. */
export function Logo({ className, dark }: { className?: string; dark?: boolean }) {
  // Pages show two logos, one hidden by screen size: a shared gradient id would point into the hidden one, which paints nothing.
  const tile = useId();
  return (
    <span className={cx("inline-flex items-center gap-2.5", className)}>
      <svg viewBox="0 0 32 32" className="size-8 shrink-0" aria-hidden="true">
        <defs>
          <linearGradient id={tile} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#6366f1" />
            <stop offset="1" stopColor="#4338ca" />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="8" fill={`url(#${tile})`} />
        <g fill="none" stroke="#fff" strokeWidth="2.2" strokeLinecap="round">
          <path d="M9.6 22.4a9 9 0 0 1 0-12.8M12.5 19.5a5 5 0 0 1 0-7M19.5 12.5a5 5 0 0 1 0 7M22.4 9.6a9 9 0 0 1 0 12.8" />
        </g>
        <circle cx="16" cy="16" r="2.2" fill="#fff" />
      </svg>
      <span className={cx("text-lg font-semibold tracking-tight", dark ? "text-white" : "text-zinc-900")}>Castline</span>
    </span>
  );
}
