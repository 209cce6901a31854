"use client";

import { useState, type FormEvent } from "react";
import { Button } from "./button";
import { Field, Input } from "./field";
import { FormFooter } from "./form-footer";
import { Modal, ModalBody } from "./modal";
import { PencilIcon } from "./icons";
import { FormErrors } from "./states";
import type { PendingAction } from "./confirm";

/** The rename request: mutate(name) and its state. */
type Rename = PendingAction & { mutate(name: string, options: { onSuccess: () => void }): void };

/** An object's update request (its PATCH): renaming sends the name alone. */
type Update = PendingAction & { mutate(patch: { name: string }, options: { onSuccess: () => void }): void };

/** The Rename button of a stream's or a video's page, and the dialog it opens. */
export function RenameButton({ noun, name, update }: { noun: string; name: string; update: Update }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>
        <PencilIcon /> Rename
      </Button>
      <RenameDialog
        open={open}
        onClose={() => setOpen(false)}
        noun={noun}
        name={name}
        rename={{ ...update, mutate: (next, options) => update.mutate({ name: next }, options) }}
      />
    </>
  );
}

/** Renames a stream or a video: one field, focused, holding the current name. */
function RenameDialog({ open, onClose, noun, name, rename }: { open: boolean; onClose: () => void; noun: string; name: string; rename: Rename }) {
  const close = () => {
    rename.reset();
    onClose();
  };
  return (
    <Modal open={open} onClose={close} title={`Rename ${noun}`}>
      <RenameForm noun={noun} name={name} rename={rename} onClose={close} />
    </Modal>
  );
}

function RenameForm({ noun, name, rename, onClose }: { noun: string; name: string; rename: Rename; onClose: () => void }) {
  const [value, setValue] = useState(name);
  const [empty, setEmpty] = useState(false);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = value.trim();
    setEmpty(!next);
    if (!next) return;
    if (next === name) return onClose();
    rename.mutate(next, { onSuccess: onClose });
  };
  return (
    <form onSubmit={submit} noValidate>
      <ModalBody>
        <FormErrors error={empty ? new Error(`Give the ${noun} a name.`) : rename.error} />
        <Field label="Name" htmlFor="rename-name">
          <Input id="rename-name" value={value} onChange={(e) => setValue(e.target.value)} maxLength={500} onFocus={(e) => e.target.select()} />
        </Field>
      </ModalBody>
      <FormFooter submit="Save" pending={rename.isPending} onCancel={onClose} />
    </form>
  );
}
