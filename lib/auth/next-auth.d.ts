import type { DefaultSession } from "next-auth";
import type { Role } from "@/lib/users/schema";

declare module "next-auth" {
  interface User {
    /** The account's session version at sign-in (lib/auth/sessions.ts). */
    sessionVersion?: number;
  }
  interface Session {
    user: { id: string; role: Role } & DefaultSession["user"];
  }
}
