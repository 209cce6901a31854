"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { FormErrors } from "@/components/ui/states";
import { api, ApiRequestError } from "@/lib/client/api";
import { safeCallback, withCallback } from "@/lib/client/callback";
import type { User } from "@/lib/users/schema";

async function startSession(email: string, password: string) {
  const result = await signIn("credentials", { email, password, redirect: false });
  // A throttled try (lib/auth/throttle.ts) gives the seconds to wait as its code.
  if (result?.status === 429) throw new ApiRequestError(429, [`Too many attempts. Try again in ${result.code} s.`]);
  if (!result || result.error) throw new ApiRequestError(401, ["Incorrect email or password."]);
}

function useAuthSubmit(run: (form: FormData) => Promise<void>, destination: string) {
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
        await run(new FormData(event.currentTarget));
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
  const { pending, error, onSubmit } = useAuthSubmit(
    (form) => startSession(text(form, "email"), text(form, "password")),
    safeCallback(callbackUrl),
  );
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

export function SignUpForm({ callbackUrl }: { callbackUrl?: string }) {
  const { pending, error, onSubmit } = useAuthSubmit(async (form) => {
    const name = text(form, "name").trim();
    const email = text(form, "email").trim();
    const password = text(form, "password");
    if (password.length < 8) throw new ApiRequestError(422, ["Password must be at least 8 characters."]);
    await api<User>("/api/user", "POST", { email, password, ...(name ? { name } : {}) });
    // An email that has an account gets the same answer; then only that account's password signs in.
    await startSession(email, password);
  }, safeCallback(callbackUrl));
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
