"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";
import { IconButton } from "./button";
import { cx } from "./cx";
import { XIcon } from "./icons";

/** Where typing starts: the first text field or list, not a checkbox (focusing it would only draw a ring). */
const FIRST_FIELD = 'input:not([type="checkbox"]):not([type="radio"]):not([type="hidden"]):not(:disabled), textarea:not(:disabled), select:not(:disabled)';
/** Without a field, the footer's first button: Cancel in a confirmation, so Enter never confirms by accident. */
const FIRST_ACTION = "[data-modal-footer] button:not(:disabled)";

/**
 * A modal on the native <dialog>: focus trapping, Escape and the top layer come
 * from the browser. Content mounts only while open, so forms start fresh each time.
 */
export function Modal({
  open,
  onClose,
  title,
  description,
  children,
  wide,
  dismissible = true,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  wide?: boolean;
  /** Whether a click outside closes it; off while it shows something not to lose (a secret). */
  dismissible?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // React's autoFocus ran while the dialog was still closed, where focus cannot land: the first field takes it now
      // (the browser's own choice would be the close button in the header).
      (dialog.querySelector<HTMLElement>(FIRST_FIELD) ?? dialog.querySelector<HTMLElement>(FIRST_ACTION))?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(e) => {
        if (dismissible && e.target === ref.current) onClose();
      }}
      className={cx(
        "m-auto max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] overflow-visible rounded-2xl bg-transparent p-0 backdrop:bg-zinc-950/50 backdrop:backdrop-blur-[2px]",
        wide ? "max-w-2xl" : "max-w-lg",
      )}
    >
      {open && (
        <div className="flex max-h-[calc(100dvh-2rem)] flex-col overflow-hidden rounded-2xl bg-white shadow-2xl ring-1 ring-zinc-900/5">
          <div className="flex items-start justify-between gap-4 border-b border-zinc-100 px-6 py-4">
            <div>
              <h2 id={titleId} className="text-base font-semibold text-zinc-900">
                {title}
              </h2>
              {description && <p className="mt-1 text-sm text-zinc-500">{description}</p>}
            </div>
            <IconButton label="Close" onClick={onClose} className="-mr-2 p-1.5 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-600">
              <XIcon className="size-5" />
            </IconButton>
          </div>
          <div className="overflow-y-auto">{children}</div>
        </div>
      )}
    </dialog>
  );
}

/** The body and button row of a modal form. */
export function ModalBody({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cx("space-y-5 px-6 py-5", className)}>{children}</div>;
}

export function ModalFooter({ children }: { children: ReactNode }) {
  return (
    <div data-modal-footer className="sticky bottom-0 flex flex-col-reverse gap-2 border-t border-zinc-100 bg-zinc-50 px-6 py-3.5 sm:flex-row sm:justify-end">
      {children}
    </div>
  );
}
