import { z } from "zod";
import { seal, unseal } from "@/lib/secrets";

/** How long a sign-up link works. */
export const SIGN_UP_LINK_TTL_MS = 24 * 3600 * 1000;

/** Sign-up links have a key of their own (lib/secrets.ts): nothing sealed for another purpose opens as one. */
const PURPOSE = "castline sign-up link v1";

/**
 * An account to be made once its address is proven. It exists nowhere but in the link mailed
 * to that address, sealed (AES-256-GCM): the server keeps no state per sign-up, and nobody
 * who cannot read that mailbox can make the account.
 */
const PendingAccount = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().optional(),
  passwordHash: z.string(),
  createdAt: z.number(),
  expiresAt: z.number(),
});
export type PendingAccount = z.infer<typeof PendingAccount>;

export const signUpToken = (account: PendingAccount) => seal(account, PURPOSE);

/** The account a sign-up link stands for, unless it was altered or has expired. */
export function pendingAccountOf(token: string): PendingAccount | undefined {
  try {
    const parsed = PendingAccount.safeParse(unseal(token, PURPOSE));
    return parsed.success && parsed.data.expiresAt > Date.now() ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The mail to an address that signed up and has no account yet: the link that makes it. */
export const signUpLinkMail = (to: string, origin: string, account: PendingAccount) => ({
  to,
  subject: "Confirm your email to finish creating your Castline account",
  text: [
    `Someone, hopefully you, signed up for Castline at ${origin} with this address.`,
    `To create the account, open this link within ${SIGN_UP_LINK_TTL_MS / 3600_000} hours:`,
    "",
    `${origin}/sign-up/verify#${signUpToken(account)}`,
    "",
    "If it was not you, ignore this mail: no account is made.",
  ].join("\n"),
});

/** The mail to an address that signed up and has an account already: nothing changes, and it is told so. */
export const addressTakenMail = (to: string, origin: string) => ({
  to,
  subject: "Your Castline account",
  text: [
    `Someone, hopefully you, tried to sign up for Castline at ${origin} with this address, which has an account already. Nothing was changed.`,
    "",
    `Sign in at ${origin}/sign-in. If you have forgotten the password, ask the operator of this Castline to reset it.`,
    "",
    "If it was not you, ignore this mail.",
  ].join("\n"),
});
