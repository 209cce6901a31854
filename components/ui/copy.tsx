"use client";

import { useState } from "react";
import { Button } from "./button";
import { cx } from "./cx";
import { CheckIcon, CopyIcon, EyeIcon, EyeOffIcon } from "./icons";

/** navigator.clipboard needs a secure context; a self-hosted box on plain http gets the old way. */
async function copyText(text: string) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  document.execCommand("copy");
  area.remove();
}

export function useCopy() {
  const [copied, setCopied] = useState(false);
  return {
    copied,
    copy: async (text: string) => {
      await copyText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1600);
    },
  };
}

export function CopyButton({
  value,
  label = "Copy",
  ariaLabel,
  iconOnly,
  variant = "secondary",
  size = "sm",
  className,
}: {
  value: string;
  label?: string;
  ariaLabel?: string;
  iconOnly?: boolean;
  variant?: "secondary" | "ghost" | "primary";
  size?: "sm" | "md";
  className?: string;
}) {
  const { copied, copy } = useCopy();
  return (
    <Button
      variant={variant}
      size={size}
      onClick={() => copy(value)}
      aria-label={ariaLabel ?? label}
      title={ariaLabel ?? label}
      className={cx(iconOnly && "w-8 px-0", className)}
    >
      {copied ? <CheckIcon className="size-4 text-emerald-600" /> : <CopyIcon className="size-4" />}
      {!iconOnly && <span>{copied ? "Copied" : label}</span>}
      {iconOnly && <span className="sr-only">{copied ? "Copied" : ""}</span>}
    </Button>
  );
}

/**
 * A value people copy into other tools: monospace, selectable, with a copy
 * button; secrets start masked behind a reveal toggle.
 */
export function CopyField({
  value,
  label,
  secret,
  testId,
}: {
  value: string;
  /** Names the value for screen readers and the buttons ("stream key"). */
  label: string;
  secret?: boolean;
  testId?: string;
}) {
  const [revealed, setRevealed] = useState(!secret);
  const shown = revealed ? value : value.replace(/[^-]/g, "•");
  return (
    <div className="flex min-w-0 items-center gap-1 rounded-lg bg-zinc-50 py-1 pr-1 pl-3 ring-1 ring-inset ring-zinc-200">
      <code
        data-testid={testId}
        aria-label={label}
        className={cx("min-w-0 flex-1 truncate font-mono text-[13px] text-zinc-800", revealed ? "select-all" : "tracking-wider text-zinc-500 select-none")}
        title={revealed ? value : undefined}
      >
        {shown}
      </code>
      {secret && (
        <Button
          variant="ghost"
          size="sm"
          className="w-8 px-0"
          onClick={() => setRevealed((r) => !r)}
          aria-label={revealed ? `Hide ${label}` : `Reveal ${label}`}
          title={revealed ? `Hide ${label}` : `Reveal ${label}`}
        >
          {revealed ? <EyeOffIcon /> : <EyeIcon />}
        </Button>
      )}
      <CopyButton value={value} iconOnly variant="ghost" ariaLabel={`Copy ${label}`} />
    </div>
  );
}
