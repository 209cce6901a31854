"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Checkbox, Field, Input } from "@/components/ui/field";
import { FormFooter } from "@/components/ui/form-footer";
import { Modal, ModalBody } from "@/components/ui/modal";
import { FormErrors } from "@/components/ui/states";
import { ApiRequestError } from "@/lib/api/client";
import { useCreateStream } from "@/lib/client/hooks";
import type { Profile } from "@/lib/streams/schema";
import { ALL_PRESETS, profilesOf, RenditionsEditor } from "./renditions-editor";

export function CreateStreamDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} onClose={onClose} title="Create a stream" description="You get a stream key for your encoder and a playback link for your viewers." wide>
      <CreateStreamForm onClose={onClose} />
    </Modal>
  );
}

function CreateStreamForm({ onClose }: { onClose: () => void }) {
  const router = useRouter();
  const create = useCreateStream();
  const [name, setName] = useState("");
  const [renditions, setRenditions] = useState(ALL_PRESETS);
  const [record, setRecord] = useState(false);
  const [localError, setLocalError] = useState<Error | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setLocalError(null);
    let profiles: Profile[];
    try {
      if (!name.trim()) throw new ApiRequestError(422, ["Give your stream a name."]);
      profiles = profilesOf(renditions);
    } catch (err) {
      setLocalError(err as Error);
      return;
    }
    create.mutate(
      { name: name.trim(), profiles, record },
      {
        onSuccess: (stream) => {
          onClose();
          router.push(`/streams/${stream.id}`);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <ModalBody>
        <FormErrors error={localError ?? create.error} />
        <Field label="Stream name" htmlFor="stream-name">
          <Input id="stream-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Friday night show" maxLength={500} autoFocus />
        </Field>

        <RenditionsEditor value={renditions} onChange={setRenditions} />

        <div className="rounded-xl bg-zinc-50 px-4 py-3 ring-1 ring-zinc-200 ring-inset">
          <Checkbox
            label="Record broadcasts"
            description="Keep a recording of every broadcast so it can be watched on demand afterwards."
            checked={record}
            onChange={(e) => setRecord(e.target.checked)}
          />
        </div>
      </ModalBody>
      <FormFooter submit="Create stream" pending={create.isPending} onCancel={onClose} />
    </form>
  );
}
