"use client";

import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { CheckIcon, SettingsIcon } from "./icons";
import type { HlsEngine } from "./use-hls";
import { controlButton } from "./controls";

/** The gear button and its menu: Auto, the source, then each rendition from the tallest. */
export function QualityMenu({
  engine: { qualities, selected, current, selectQuality },
  onOpenChange,
}: {
  engine: HlsEngine;
  /** Tells the player to keep its controls up while the menu is open. */
  onOpenChange: (open: boolean) => void;
}) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  const playing = qualities.find((q) => q.index === current);
  // "Auto" says what it picked: a height, since "Source" would not say how sharp.
  const picked = playing && (playing.source && playing.height ? `${playing.height}p` : playing.label);
  const items = [{ index: -1, label: "Auto", detail: selected === -1 ? picked : undefined }, ...qualities];
  const chosen = items.find((q) => q.index === selected) ?? items[0];
  const hd = (playing?.height ?? 0) >= 720;

  useEffect(() => onOpenChange(open), [open, onOpenChange]);
  // The menu can vanish while open (a reconnect drops the renditions): let the controls hide again.
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

  const closeMenu = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  const onMenuKey = (event: KeyboardEvent) => {
    const options = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]') ?? [])];
    const at = options.indexOf(document.activeElement as HTMLElement);
    const go = (i: number) => options[(i + options.length) % options.length]?.focus();
    switch (event.key) {
      case "ArrowDown":
        go(at + 1);
        break;
      case "ArrowUp":
        go(at - 1);
        break;
      case "Home":
        go(0);
        break;
      case "End":
        go(options.length - 1);
        break;
      case "Escape":
        closeMenu();
        break;
      case "Tab":
        setOpen(false);
        return;
      default:
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
        aria-label={`Quality: ${chosen.label}${chosen.index === -1 && picked ? ` (${picked})` : ""}`}
        title="Quality"
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
        <SettingsIcon className={`size-[22px] transition-transform duration-300 ${open ? "rotate-45" : ""}`} />
        {hd && (
          <span className="absolute top-1 right-0.5 rounded-[3px] bg-red-600 px-[3px] text-[8px] leading-[11px] font-bold tracking-wide text-white">
            HD
          </span>
        )}
      </button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label="Quality"
          onKeyDown={onMenuKey}
          className="absolute right-0 bottom-full mb-3 max-h-[calc(100cqh-5.5rem)] w-48 overflow-y-auto rounded-xl bg-zinc-900/90 py-1.5 text-sm text-white shadow-2xl ring-1 ring-white/10 backdrop-blur-md"
        >
          <p className="px-3.5 pt-1 pb-1.5 text-[11px] font-semibold tracking-wider text-white/50 uppercase">Quality</p>
          {items.map((q) => {
            const checked = q.index === selected;
            return (
              <button
                key={q.index}
                type="button"
                role="menuitemradio"
                aria-checked={checked}
                tabIndex={checked ? 0 : -1}
                onClick={() => {
                  selectQuality(q.index);
                  closeMenu();
                }}
                className="flex w-full items-center gap-2.5 px-3.5 py-2 text-left outline-none hover:bg-white/10 focus-visible:bg-white/15"
              >
                <CheckIcon className={`size-4 shrink-0 ${checked ? "text-white" : "invisible"}`} />
                <span className={checked ? "font-semibold" : "text-white/85"}>{q.label}</span>
                {q.detail && <span className="ml-auto text-xs text-white/50">{q.detail}</span>}
              </button>
            );
          })}
        </div>
      )}
    </div>
  );
}
