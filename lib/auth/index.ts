import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { config } from "@/lib/config";
import { checkCredentials } from "@/lib/users/service";

const SignIn = z.object({ email: z.string().min(1), password: z.string().min(1) });

/**
 * Dashboard sign-in (Auth.js v5): email + password, JWT session cookie.
 * The secret comes from AUTH_SECRET, which the launcher generates into DATA_DIR when unset.
 */
export const { handlers, auth, signIn, signOut } = NextAuth({
  // Requests reach Auth.js at the browser's origin (lib/auth/origin.ts), checked there.
  trustHost: true,
  // With PUBLIC_URL, redirects go there: its scheme decides secure cookies, whatever a proxy says.
  useSecureCookies: config().PUBLIC_URL ? new URL(config().PUBLIC_URL!).protocol === "https:" : undefined,
  logger: {
    // A wrong password is a normal event, not a server error. (By `type`: class names are minified in the build.)
    error: (error) => void ((error as { type?: string }).type !== "CredentialsSignin" && console.error("[auth]", error)),
  },
  session: { strategy: "jwt", maxAge: 30 * 24 * 3600 },
  pages: { signIn: "/sign-in" },
  providers: [
    Credentials({
      credentials: { email: {}, password: {} },
      async authorize(input) {
        const parsed = SignIn.safeParse(input);
        if (!parsed.success) throw new CredentialsSignin();
        const user = await checkCredentials(parsed.data.email, parsed.data.password);
        if (!user) throw new CredentialsSignin();
        return { id: user.id, email: user.email, name: user.name };
      },
    }),
  ],
  callbacks: {
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      return session;
    },
  },
});
