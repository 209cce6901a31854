import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthLayout } from "@/components/auth/auth-layout";
import { SignInForm } from "@/components/auth/auth-forms";
import { auth } from "@/lib/auth";
import { safeCallback } from "@/lib/client/callback";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string | string[] }> }) {
  const { callbackUrl } = await searchParams;
  const target = typeof callbackUrl === "string" ? callbackUrl : undefined;
  if ((await auth())?.user) redirect(safeCallback(target));
  return (
    <AuthLayout title="Welcome back" subtitle="Sign in to manage your streams.">
      <SignInForm callbackUrl={target} />
    </AuthLayout>
  );
}
