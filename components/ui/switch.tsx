"use client";

import { useId, type ReactNode } from "react";
import { cx } from "./cx";

/** An on/off setting that applies at once (role="switch"). */
export function Switch({
  checked,
  onChange,
  label,
  description,
  disabled,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  description?: ReactNode;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="min-w-0">
        <label htmlFor={id} className="cursor-pointer text-sm font-medium text-zinc-900">
          {label}
        </label>
        {description && <p className="mt-0.5 text-sm text-zinc-500">{description}</p>}
      </div>
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        disabled={disabled}
        onClick={() => onChange(!checked)}
        className={cx(
          "relative inline-flex h-6 w-11 shrink-0 cursor-pointer rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-50",
          checked ? "bg-indigo-600" : "bg-zinc-200",
        )}
      >
        <span
          aria-hidden="true"
          className={cx(
            "pointer-events-none absolute top-0.5 left-0.5 size-5 rounded-full bg-white shadow scheme-light ring-0 transition-transform",
            checked ? "translate-x-5" : "translate-x-0",
          )}
        />
      </button>
    </div>
  );
}
