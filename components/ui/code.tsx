"use client";

import type { ReactNode } from "react";
import { CopyButton, useCopy } from "./copy";
import { cx } from "./cx";
import { CheckIcon, CopyIcon } from "./icons";

/** Strings (and whether they are keys), literals and numbers of a JSON text, for colouring. */
const JSON_TOKEN = /("(?:\\.|[^"\\])*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

function highlightJson(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(JSON_TOKEN)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    const [token, string, colon, literal] = m;
    if (string && colon) {
      out.push(
        <span key={at} className="text-sky-300">
          {string}
        </span>,
        colon,
      );
    } else {
      out.push(
        <span key={at} className={string ? "text-emerald-300" : literal ? "text-violet-300" : "text-amber-200"}>
          {token}
        </span>,
      );
    }
    last = at + token.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** A block of code or payload to read and copy: dark, monospace, scrolls when long. */
export function CodeBlock({
  value,
  json,
  label,
  copyLabel = "Copy",
  className,
}: {
  value: string;
  /** Colour it as JSON (the value should already be pretty-printed). */
  json?: boolean;
  label?: string;
  copyLabel?: string;
  className?: string;
}) {
  const { copied, copy } = useCopy();
  return (
    <div className={cx("relative", className)}>
      <pre
        aria-label={label}
        className="max-h-96 overflow-auto rounded-lg bg-zinc-950 py-3 pr-10 pl-4 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-zinc-100 scheme-light"
      >
        {json ? highlightJson(value) : value}
      </pre>
      <button
        type="button"
        onClick={() => copy(value)}
        aria-label={copied ? "Copied" : copyLabel}
        title={copyLabel}
        className="absolute top-1.5 right-1.5 rounded-md p-1.5 text-zinc-500 transition-colors hover:bg-zinc-800 hover:text-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-400"
      >
        {copied ? <CheckIcon className="size-4 text-emerald-400" /> : <CopyIcon className="size-4" />}
      </button>
    </div>
  );
}

/** A titled snippet to paste elsewhere (an embed code, a command), and a button that copies it. */
export function CodeSnippet({
  title,
  value,
  copyLabel,
  testId,
  className,
  children,
}: {
  title: string;
  value: string;
  copyLabel: string;
  testId?: string;
  className?: string;
  /** What to show, when it is not the value itself (a shortened key). */
  children?: ReactNode;
}) {
  return (
    <div>
      <div className="mb-1.5 flex items-center justify-between">
        <p className="text-sm font-medium text-zinc-800">{title}</p>
        <CopyButton value={value} label={copyLabel} variant="ghost" />
      </div>
      <pre
        data-testid={testId}
        className={cx("overflow-x-auto rounded-lg bg-zinc-950 px-4 py-3 font-mono text-xs leading-relaxed text-zinc-100 scheme-light", className)}
      >
        {children ?? value}
      </pre>
    </div>
  );
}
