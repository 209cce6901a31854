import { config } from "@/lib/config";
import { conflict, forbidden, invalid, tooMany } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { mailRequested } from "@/lib/jobs/events";
import { emit } from "@/lib/jobs/emit";
import { canMail } from "@/lib/mail";
import { publicOrigin } from "@/lib/origin";
import { addressSubject } from "@/lib/rate-limits/address";
import { limits, refusalMessage } from "@/lib/rate-limits/limits";
import { countHits } from "@/lib/rate-limits/store";
import { hashPassword } from "./password";
import type { SignUp, User } from "./schema";
import { findUserByEmail, insertUser, serializeUser } from "./service";
import { addressTakenMail, pendingAccountOf, SIGN_UP_LINK_TTL_MS, signUpLinkMail } from "./verification";

/**
 * Public sign-up. Its answer does not tell whether the email has an account: a taken email
 * gets the same status and shape (with an id that names nothing) after the same work
 * (the password is hashed and the insert tried), and its account is left as it was,
 * so only that account's own password signs in. Without mail, whether the new account
 * then works still tells (see signUpByMail). Sign-ups from one address are limited
 * (RATE_LIMIT_AUTH_PER_MIN): each costs a password hash, and accounts are cheap to abuse.
 */
export async function signUp(input: SignUp, fromAddress: string): Promise<User> {
  if (!config().ALLOW_SIGNUP) throw forbidden("sign-up is disabled on this server; ask an operator for an account");
  const limit = limits().signUpAddress;
  if (limit.perMinute) {
    const [{ quota }] = await countHits([{ limit, subject: addressSubject(fromAddress) }]);
    if (quota.exceeded) throw tooMany(refusalMessage(limit.name, quota.limit, quota.resetS), quota.resetS);
  }
  const passwordHash = await hashPassword(input.password);
  if (canMail()) return signUpByMail(input, passwordHash);
  const row = await insertUser({ ...input, passwordHash });
  if (row) return serializeUser(row);
  return { id: newId(), email: input.email, ...(input.name ? { name: input.name } : {}), createdAt: Date.now() };
}

/**
 * Sign-up with mail (SMTP_URL) makes no account: it mails the address a link that makes it
 * (verifySignUp), or, when the address has an account, a mail saying so. The answer and what
 * the client can do next (nothing, until the link is followed) are the same either way: only
 * the mailbox's owner learns whether the address had an account, and only they can make one.
 */
async function signUpByMail(input: SignUp, passwordHash: string): Promise<User> {
  const now = Date.now();
  const account = {
    id: newId(),
    email: input.email,
    ...(input.name ? { name: input.name } : {}),
    passwordHash,
    createdAt: now,
    expiresAt: now + SIGN_UP_LINK_TTL_MS,
  };
  const origin = publicOrigin();
  const taken = await findUserByEmail(input.email);
  await emit(mailRequested, taken ? addressTakenMail(input.email, origin) : signUpLinkMail(input.email, origin, account));
  return { id: account.id, email: account.email, ...(account.name ? { name: account.name } : {}), createdAt: now };
}

/** Makes the account of a sign-up link (signUpByMail); following the same link again answers the same account. */
export async function verifySignUp(token: string): Promise<User> {
  const account = pendingAccountOf(token);
  if (!account) throw invalid("this sign-up link is not valid or has expired: sign up again");
  const row = (await insertUser(account)) ?? (await findUserByEmail(account.email));
  if (row?.id !== account.id) throw conflict("this address has an account already: sign in");
  return serializeUser(row);
}
