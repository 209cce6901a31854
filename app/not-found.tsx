import type { Metadata } from "next";
import Link from "next/link";
import { Logo } from "@/components/brand";
import { LinkButton } from "@/components/ui/button";
import { DocsLink } from "@/components/ui/docs-link";
import { auth } from "@/lib/auth";

export const metadata: Metadata = { title: "Page not found" };

/**
 * Any URL no page answers (and pages that call notFound()), in the dashboard's look and theme:
 * a way back to one's streams when signed in, to sign in otherwise.
 */
export default async function NotFound() {
  const signedIn = !!(await auth())?.user?.email;
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-12 text-center">
      <Link href={signedIn ? "/streams" : "/sign-in"} aria-label="Castline home">
        <Logo />
      </Link>
      <div className="mt-10 w-full max-w-md rounded-xl bg-white px-6 py-10 shadow-xs ring-1 ring-zinc-200 sm:px-10">
        <p className="text-sm font-semibold text-indigo-600">404</p>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight text-zinc-900">This page does not exist</h1>
        <p className="mt-2 text-sm text-zinc-500">The link may be mistyped, or what it showed was deleted.</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          {signedIn ? (
            <LinkButton href="/streams" variant="primary">
              Go to your streams
            </LinkButton>
          ) : (
            <>
              <LinkButton href="/sign-in" variant="primary">
                Sign in
              </LinkButton>
              <LinkButton href="/sign-up">Create an account</LinkButton>
            </>
          )}
        </div>
      </div>
      <p className="mt-6 text-sm text-zinc-500">
        Building with the API? See the <DocsLink />.
      </p>
    </main>
  );
}
