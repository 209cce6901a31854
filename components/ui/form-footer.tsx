import type { ReactNode } from "react";
import { Button } from "./button";
import { CheckIcon } from "./icons";
import { ModalFooter } from "./modal";

/**
 * The row under a form: the submit button (busy while the request runs), Cancel in a modal,
 * and a word once the request went through. In a modal it sticks to the bottom and stacks
 * on phones; under a card's form it is a tinted strip.
 */
export function FormFooter({
  submit,
  pending,
  onCancel,
  done,
}: {
  submit: ReactNode;
  pending: boolean;
  /** Given in a modal: closes it. */
  onCancel?: () => void;
  /** Said beside the button once the request succeeded ("Saved"). */
  done?: ReactNode;
}) {
  const submitButton = (
    <Button type="submit" variant="primary" pending={pending}>
      {submit}
    </Button>
  );
  if (onCancel) {
    return (
      <ModalFooter>
        <Button onClick={onCancel}>Cancel</Button>
        {submitButton}
      </ModalFooter>
    );
  }
  return (
    <div className="flex flex-wrap items-center justify-end gap-3 border-t border-zinc-100 bg-zinc-50/60 px-5 py-3">
      {done && !pending && (
        <span role="status" className="inline-flex items-center gap-1.5 text-sm text-emerald-700">
          <CheckIcon /> {done}
        </span>
      )}
      {submitButton}
    </div>
  );
}
