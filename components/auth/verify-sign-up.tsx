"use client";

import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormErrors } from "@/components/ui/states";
import { call } from "@/lib/api/client";
import { operations } from "@/lib/api/operations";
import type { User } from "@/lib/users/schema";

/** Makes the account of the sign-up link this page was opened with (its token is the URL's fragment). */
export function VerifySignUp() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [made, setMade] = useState<User>();
  if (made) {
    return (
      <div role="status" className="space-y-4 text-sm text-zinc-600 dark:text-zinc-300">
        <p>
          Your account for <span className="font-medium">{made.email}</span> is ready.
        </p>
        <Link href="/sign-in" className="font-medium text-indigo-600 hover:text-indigo-500">
          Sign in
        </Link>
      </div>
    );
  }
  const finish = async () => {
    setPending(true);
    setError(null);
    try {
      setMade(await call(operations.verifySignUp, { body: { token: window.location.hash.slice(1) } }));
    } catch (err) {
      setError(err instanceof Error ? err : new Error(String(err)));
      setPending(false);
    }
  };
  return (
    <div className="space-y-5">
      <FormErrors error={error} />
      <Button variant="primary" pending={pending} className="w-full" onClick={finish}>
        Create my account
      </Button>
    </div>
  );
}
