"use client";

import type { ReactNode } from "react";
import { Button } from "./button";
import { Modal, ModalBody, ModalFooter } from "./modal";
import { FormErrors } from "./states";

/** The request a confirmation sends (a mutation): whether it runs, and why it failed. */
export interface PendingAction {
  isPending: boolean;
  error: Error | null;
  /** Forgets the last failure, so the next time the dialog opens it starts clean. */
  reset(): void;
}

/** Asks before something that cannot be undone, and shows why it failed if it does. */
export function ConfirmDialog({
  open,
  onClose,
  onConfirm,
  title,
  children,
  confirmLabel,
  action,
}: {
  open: boolean;
  onClose: () => void;
  onConfirm: () => void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  action: PendingAction;
}) {
  const close = () => {
    action.reset();
    onClose();
  };
  return (
    <Modal open={open} onClose={close} title={title}>
      <ModalBody>
        <div className="text-sm text-zinc-600">{children}</div>
        <FormErrors error={action.error} />
      </ModalBody>
      <ModalFooter>
        <Button onClick={close}>Cancel</Button>
        <Button variant="danger" pending={action.isPending} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </ModalFooter>
    </Modal>
  );
}
