"use client";

import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Input, Select } from "./field";

/** Above a list: a search box and the selects that filter and sort it; wraps on phones. */
export function ListToolbar({ children }: { children: ReactNode }) {
  return <div className="mb-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">{children}</div>;
}

/** Typing waits this long before it searches, so a word is one request, not one per letter. */
const SEARCH_DELAY_MS = 300;

/** Searches by name as the user types; `value` is the search in force (from the URL). */
export function SearchBox({ label, value, onChange }: { label: string; value: string; onChange: (search: string | undefined) => void }) {
  const [text, setText] = useState(value);
  const committed = useRef(value);
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });
  // The search changed elsewhere (cleared, the browser's back button): show it.
  useEffect(() => {
    if (value === committed.current) return;
    committed.current = value;
    setText(value);
  }, [value]);
  useEffect(() => {
    const search = text.trim();
    if (search === committed.current) return;
    const timer = setTimeout(() => {
      committed.current = search;
      latest.current(search || undefined);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <Input
      type="search"
      aria-label={label}
      placeholder={label}
      value={text}
      maxLength={200}
      onChange={(e) => setText(e.target.value)}
      className="sm:max-w-xs sm:flex-1"
    />
  );
}

/** A labelled select of a list's filter or order; the first option is what applies when none is chosen. */
export function ListSelect({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly (readonly [value: string, label: string])[];
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <span className="flex items-center gap-2">
      <label htmlFor={id} className="w-14 shrink-0 text-sm text-zinc-500 sm:w-auto">
        {label}
      </label>
      <Select id={id} value={value} onChange={(e) => onChange(e.target.value)} className="sm:w-auto">
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </Select>
    </span>
  );
}
