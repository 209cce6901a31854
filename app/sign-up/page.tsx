import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthLayout } from "@/components/auth/auth-layout";
import { SignUpForm } from "@/components/auth/auth-forms";
import { auth } from "@/lib/auth";
import { safeCallback } from "@/lib/client/callback";
import { canMail } from "@/lib/mail";

export const metadata: Metadata = { title: "Create your account" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string | string[] }> }) {
  const { callbackUrl } = await searchParams;
  const target = typeof callbackUrl === "string" ? callbackUrl : undefined;
  if ((await auth())?.user) redirect(safeCallback(target));
  return (
    <AuthLayout title="Create your account" subtitle="Start streaming in a couple of minutes.">
      <SignUpForm callbackUrl={target} confirmByMail={canMail()} />
    </AuthLayout>
  );
}
