import { eq, sql } from "drizzle-orm";
import { db } from "@/db/client";
import { users } from "@/db/schema";
import { forbidden, invalid, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { hashPassword, unmatchableHash, verifyPassword } from "./password";
import { accountEmail, type Role, type User } from "./schema";

type UserRow = typeof users.$inferSelect;

export function serializeUser(row: UserRow): User {
  return { id: row.id, email: row.email, ...(row.name ? { name: row.name } : {}), createdAt: row.createdAt };
}

export async function findUserById(id: string): Promise<UserRow | undefined> {
  return db().query.users.findFirst({ where: eq(users.id, id) });
}

/** The caller's own account, in its public shape. */
export async function getUser(id: string) {
  const user = await findUserById(id);
  if (!user) throw notFound("user");
  return serializeUser(user);
}

export async function findUserByEmail(email: string): Promise<UserRow | undefined> {
  return db().query.users.findFirst({ where: eq(users.email, accountEmail(email)) });
}

/** The new account, or undefined when the email has one already. */
export async function insertUser(input: {
  id?: string;
  email: string;
  name?: string;
  passwordHash: string | null;
  createdAt?: number;
}): Promise<UserRow | undefined> {
  const [row] = await db()
    .insert(users)
    .values({
      id: input.id ?? newId(),
      email: input.email,
      name: input.name ?? null,
      passwordHash: input.passwordHash,
      createdAt: input.createdAt ?? Date.now(),
    })
    .onConflictDoNothing({ target: users.email })
    .returning();
  return row;
}

/** Operators' CLI: operators may know which emails have accounts, so a taken one is an error. */
export async function createUser(input: { email: string; password?: string; name?: string }): Promise<UserRow> {
  const row = await insertUser({ ...input, passwordHash: input.password ? await hashPassword(input.password) : null });
  if (!row) throw invalid("an account with this email already exists");
  return row;
}

const nextSessionVersion = sql`${users.sessionVersion} + 1`;

/** Sets or replaces a user's password (operators' CLI), and ends every dashboard session of the account. */
export async function setPassword(userId: string, password: string) {
  await db()
    .update(users)
    .set({ passwordHash: await hashPassword(password), sessionVersion: nextSessionVersion })
    .where(eq(users.id, userId));
}

/** Ends every dashboard session of the account (lib/auth/sessions.ts); its API keys stay. */
export async function endAllSessions(userId: string) {
  await db().update(users).set({ sessionVersion: nextSessionVersion }).where(eq(users.id, userId));
}

export async function setRole(userId: string, role: Role) {
  await db().update(users).set({ role }).where(eq(users.id, userId));
}

/** Operators' views (the media nodes) are for accounts with the admin role. */
export async function requireAdmin(userId: string) {
  const user = await findUserById(userId);
  if (user?.role !== "admin") throw forbidden("only operators (accounts with the admin role, given with `cli -- users set-role`) see this");
}

/** The user whose email and password match, or undefined. Same work either way, against timing probes. */
export async function checkCredentials(email: string, password: string): Promise<UserRow | undefined> {
  const row = await findUserByEmail(email);
  const ok = await verifyPassword(password, row?.passwordHash ?? unmatchableHash());
  return ok && row?.passwordHash ? row : undefined;
}
