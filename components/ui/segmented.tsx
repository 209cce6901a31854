"use client";

import { cx } from "./cx";

/**
 * A few exclusive choices as one row of buttons, the chosen one raised (a range, an order):
 * each button says whether it is pressed, the row names what is chosen.
 */
export function Segmented<K extends string>({
  label,
  options,
  value,
  onChange,
}: {
  /** What the row chooses, for assistive technology ("Range"). */
  label: string;
  /** Each choice's text, and optionally a longer name for assistive technology. */
  options: Record<K, { text: string; name?: string }>;
  value: K;
  onChange: (key: K) => void;
}) {
  return (
    <div role="group" aria-label={label} className="inline-flex rounded-lg bg-zinc-100 p-0.5 ring-1 ring-zinc-200 ring-inset">
      {(Object.keys(options) as K[]).map((key) => (
        <button
          key={key}
          type="button"
          aria-pressed={key === value}
          aria-label={options[key].name}
          onClick={() => onChange(key)}
          className={cx(
            "rounded-md px-2.5 py-1 text-xs font-medium whitespace-nowrap tabular-nums transition-colors",
            key === value ? "bg-white text-zinc-900 shadow-xs ring-1 ring-zinc-200" : "text-zinc-600 hover:text-zinc-900",
          )}
        >
          {options[key].text}
        </button>
      ))}
    </div>
  );
}
