"use client";

import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { controlButton } from "./controls";
import { CheckIcon } from "./icons";

export interface MenuChoice {
  value: number;
  label: string;
  /** Greyed beside the label (e.g. what Auto picked). */
  detail?: string;
  lang?: string;
}

/**
 * A control-bar button with a menu of choices, one checked (quality, captions): opens
 * above the bar, closes on a choice, Escape or a click elsewhere, and is driven by the
 * keyboard as a WAI-ARIA menu of radio items.
 */
export function ControlMenu({
  title,
  buttonLabel,
  icon,
  choices,
  checked,
  onChoose,
  onOpenChange,
}: {
  title: string;
  buttonLabel: string;
  icon: (open: boolean) => ReactNode;
  choices: MenuChoice[];
  checked: number;
  onChoose: (value: number) => void;
  /** Tells the player to keep its controls up while the menu is open. */
  onOpenChange: (open: boolean) => void;
}) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

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
        aria-label={buttonLabel}
        title={title}
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
        {icon(open)}
      </button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label={title}
          onKeyDown={onMenuKey}
          className="absolute right-0 bottom-full mb-3 max-h-[calc(100cqh-5.5rem)] w-48 overflow-y-auto rounded-xl bg-zinc-900/90 py-1.5 text-sm text-white shadow-2xl ring-1 ring-white/10 backdrop-blur-md"
        >
          <p className="px-3.5 pt-1 pb-1.5 text-[11px] font-semibold tracking-wider text-white/50 uppercase">{title}</p>
          {choices.map((c) => {
            const on = c.value === checked;
            return (
              <button
                key={c.value}
                type="button"
                role="menuitemradio"
                aria-checked={on}
                tabIndex={on ? 0 : -1}
                lang={c.lang}
                onClick={() => {
                  onChoose(c.value);
                  closeMenu();
                }}
                className="flex w-full items-center gap-2.5 px-3.5 py-2 text-left outline-none hover:bg-white/10 focus-visible:bg-white/15"
              >
                <CheckIcon className={`size-4 shrink-0 ${on ? "text-white" : "invisible"}`} />
                <span className={on ? "font-semibold" : "text-white/85"}>{c.label}</span>
                {c.detail && <span className="ml-auto text-xs text-white/50">{c.detail}</span>}
              </button>
            );
          })}
        </div>
      )}
    </div>
  );
}
