import type { ReactNode } from "react";
import { ShieldIcon } from "./icons";

/** The warning beside a secret the server answers only at its creation (API keys, webhook secrets, private signing keys). */
export function ShownOnceNotice({ children }: { children: ReactNode }) {
  return (
    <div role="note" className="flex gap-3 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200">
      <ShieldIcon className="mt-0.5 size-4 shrink-0 text-amber-600" />
      <p>{children}</p>
    </div>
  );
}
