import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthLayout } from "@/components/auth/auth-layout";
import { SignUpForm } from "@/components/auth/auth-forms";
import { auth } from "@/lib/auth";

export const metadata: Metadata = { title: "Create your account" };

export default async function SignUpPage() {
  if ((await auth())?.user) redirect("/streams");
  return (
    <AuthLayout title="Create your account" subtitle="Start streaming in a couple of minutes.">
      <SignUpForm />
    </AuthLayout>
  );
}
