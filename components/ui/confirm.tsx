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

/** The request that removes one item by its id. */
type RemoveById = PendingAction & { mutate(id: string, options: { onSuccess: () => void }): void };

/** Asks before removing one item of a list: open while `item` is set, closed once it is gone. */
export function ConfirmRemoval({
  item,
  onClose,
  remove,
  title,
  confirmLabel,
  children,
}: {
  item: { id: string } | null;
  onClose: () => void;
  remove: RemoveById;
  title: string;
  confirmLabel: string;
  children: ReactNode;
}) {
  return (
    <ConfirmDialog
      open={item !== null}
      onClose={onClose}
      title={title}
      confirmLabel={confirmLabel}
      action={remove}
      onConfirm={() => item && remove.mutate(item.id, { onSuccess: onClose })}
    >
      {children}
    </ConfirmDialog>
  );
}
