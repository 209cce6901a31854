import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { Providers } from "@/app/providers";
import { DashboardShell } from "@/components/shell/dashboard-shell";
import { auth } from "@/lib/auth";

/** Every dashboard page needs a signed-in user; the session is checked on the server. */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await auth();
  if (!session?.user?.email) redirect("/sign-in");
  return (
    <Providers session={session}>
      <DashboardShell user={{ email: session.user.email, name: session.user.name }}>{children}</DashboardShell>
    </Providers>
  );
}
