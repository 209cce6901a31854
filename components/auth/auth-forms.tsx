"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { FormErrors } from "@/components/ui/states";
import { ApiRequestError, call } from "@/lib/api/client";
import { operations } from "@/lib/api/operations";
import { safeCallback, withCallback } from "@/lib/client/callback";

async function startSession(email: string, password: string) {
  const result = await signIn("credentials", { email, password, redirect: false });
  // A throttled try (lib/auth/throttle.ts) gives the seconds to wait as its code.
  if (result?.status === 429) throw new ApiRequestError(429, [`Too many attempts. Try again in ${result.code} s.`]);
  if (!result || result.error) throw new ApiRequestError(401, ["Incorrect email or password."]);
}

/** `run` signs in and the page goes to `destination`, unless it answers "stay". */
function useAuthSubmit(run: (form: FormData) => Promise<"stay" | void>, destination: string) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  return {
    pending,
    error,
    onSubmit: async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      setPending(true);
      setError(null);
      try {
        if ((await run(new FormData(event.currentTarget))) === "stay") return setPending(false);
        router.replace(destination);
        router.refresh();
      } catch (err) {
        setError(err instanceof Error ? err : new Error(String(err)));
        setPending(false);
      }
    },
  };
}

const text = (form: FormData, name: string) => String(form.get(name) ?? "");

export function SignInForm({ callbackUrl }: { callbackUrl?: string }) {
  const { pending, error, onSubmit } = useAuthSubmit((form) => startSession(text(form, "email"), text(form, "password")), safeCallback(callbackUrl));
  return (
    <form onSubmit={onSubmit} className="space-y-5" noValidate>
      <FormErrors error={error} />
      <Field label="Email" htmlFor="email">
        <Input id="email" name="email" type="email" autoComplete="email" required autoFocus placeholder="you@example.com" />
      </Field>
      <Field label="Password" htmlFor="password">
        <Input id="password" name="password" type="password" autoComplete="current-password" required />
      </Field>
      <Button type="submit" variant="primary" pending={pending} className="w-full">
        Sign in
      </Button>
      <p className="text-center text-sm text-zinc-500">
        New to Castline?{" "}
        <Link href={withCallback("/sign-up", callbackUrl)} className="font-medium text-indigo-600 hover:text-indigo-500">
          Create an account
        </Link>
      </p>
    </form>
  );
}

/**
 * `confirmByMail` (the server sends mail): the account is made from a link mailed to the
 * address, so after signing up the form says where to look instead of signing in.
 */
export function SignUpForm({ callbackUrl, confirmByMail }: { callbackUrl?: string; confirmByMail: boolean }) {
  const [mailedTo, setMailedTo] = useState<string>();
  const { pending, error, onSubmit } = useAuthSubmit(async (form) => {
    const name = text(form, "name").trim();
    const email = text(form, "email").trim();
    const password = text(form, "password");
    if (password.length < 8) throw new ApiRequestError(422, ["Password must be at least 8 characters."]);
    await call(operations.signUp, { body: { email, password, ...(name ? { name } : {}) } });
    if (confirmByMail) {
      setMailedTo(email);
      return "stay";
    }
    // An email that has an account gets the same answer; then only that account's password signs in.
    await startSession(email, password);
  }, safeCallback(callbackUrl));
  if (mailedTo) {
    return (
      <div role="status" className="space-y-3 text-sm text-zinc-600 dark:text-zinc-300">
        <p className="text-base font-semibold text-zinc-900 dark:text-white">Check your inbox</p>
        <p>
          We sent a mail to <span className="font-medium">{mailedTo}</span>. Open the link in it to finish creating your account. If the address already has an
          account, the mail says so instead.
        </p>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} className="space-y-5" noValidate>
      <FormErrors error={error} />
      <Field label="Name" htmlFor="name" optional>
        <Input id="name" name="name" autoComplete="name" autoFocus placeholder="Ada Lovelace" />
      </Field>
      <Field label="Email" htmlFor="email">
        <Input id="email" name="email" type="email" autoComplete="email" required placeholder="you@example.com" />
      </Field>
      <Field label="Password" htmlFor="password" hint="At least 8 characters.">
        <Input id="password" name="password" type="password" autoComplete="new-password" required minLength={8} />
      </Field>
      <Button type="submit" variant="primary" pending={pending} className="w-full">
        Create account
      </Button>
      <p className="text-center text-sm text-zinc-500">
        Already have an account?{" "}
        <Link href={withCallback("/sign-in", callbackUrl)} className="font-medium text-indigo-600 hover:text-indigo-500">
          Sign in
        </Link>
      </p>
    </form>
  );
}
