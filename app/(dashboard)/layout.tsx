import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { Providers } from "@/app/providers";
import { DashboardShell } from "@/components/shell/dashboard-shell";
import { auth } from "@/lib/auth";
import { PAGE_HEADER } from "@/lib/auth/page";
import { signInPath } from "@/lib/client/callback";

/** Every dashboard page needs a signed-in user (checked on the server); sign-in brings them back here. */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await auth();
  if (!session?.user?.email) redirect(signInPath((await headers()).get(PAGE_HEADER)));
  return (
    <Providers session={session}>
      <DashboardShell user={{ email: session.user.email, name: session.user.name, role: session.user.role }}>{children}</DashboardShell>
    </Providers>
  );
}
