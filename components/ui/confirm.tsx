"use client";

import type { ReactNode } from "react";
import { Button } from "./button";
import { Modal, ModalBody, ModalFooter } from "./modal";
import { FormErrors } from "./states";

/** Asks before something that cannot be undone, and shows why it failed if it does. */
export function ConfirmDialog({
  open,
  onClose,
  onConfirm,
  title,
  children,
  confirmLabel,
  pending,
  error,
}: {
  open: boolean;
  onClose: () => void;
  onConfirm: () => void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pending?: boolean;
  error?: Error | null;
}) {
  return (
    <Modal open={open} onClose={onClose} title={title}>
      <ModalBody>
        <div className="text-sm text-zinc-600">{children}</div>
        <FormErrors error={error} />
      </ModalBody>
      <ModalFooter>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="danger" pending={pending} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </ModalFooter>
    </Modal>
  );
}
