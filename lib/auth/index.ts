import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { config } from "@/lib/config";
import { checkCredentials } from "@/lib/users/service";
import { endSession, liveSession, newSessionClaims, SESSION_MAX_AGE_S } from "./sessions";

const SignIn = z.object({ email: z.string().min(1), password: z.string().min(1) });

/**
 * Dashboard sign-in (Auth.js v5): email + password, JWT session cookie. Every use of the
 * cookie is checked against the database (lib/auth/sessions.ts), so that signing out and a
 * password reset end sessions. The secret comes from AUTH_SECRET, which the launcher
 * generates into DATA_DIR when unset.
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
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
  pages: { signIn: "/sign-in" },
  providers: [
    Credentials({
      credentials: { email: {}, password: {} },
      async authorize(input) {
        const parsed = SignIn.safeParse(input);
        if (!parsed.success) throw new CredentialsSignin();
        const user = await checkCredentials(parsed.data.email, parsed.data.password);
        if (!user) throw new CredentialsSignin();
        return { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion };
      },
    }),
  ],
  callbacks: {
    // Called as a session begins (with the user) and on every use of its cookie; null ends it.
    async jwt({ token, user, trigger }) {
      if (trigger === "signIn") return { ...token, ...newSessionClaims(user.sessionVersion ?? 0) };
      const live = await liveSession(token);
      return live ? { ...token, role: live.role } : null;
    },
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      session.user.role = token.role === "admin" ? "admin" : "user";
      return session;
    },
  },
  events: {
    signOut: async (message) => {
      if ("token" in message) await endSession(message.token?.sid);
    },
  },
});
