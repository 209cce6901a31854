import type { Metadata } from "next";
import { AuthLayout } from "@/components/auth/auth-layout";
import { VerifySignUp } from "@/components/auth/verify-sign-up";

export const metadata: Metadata = { title: "Finish creating your account" };

/** Where a mailed sign-up link leads (lib/users/sign-up.ts): its token is in the fragment, which no server or Referer sees. */
export default function VerifySignUpPage() {
  return (
    <AuthLayout title="Finish creating your account" subtitle="One click and your account is ready.">
      <VerifySignUp />
    </AuthLayout>
  );
}
