import { z } from "zod";
import { isCommonPassword } from "./common-passwords";

/** The form of an email that names an account: what sign-up stores, sign-in looks up and its throttle counts under. */
export const accountEmail = (email: string) => email.toLowerCase();

export const Email = z.email({ message: "must be a valid email address" }).max(254).transform(accountEmail);
export const Password = z
  .string()
  .min(8, "must be at least 8 characters")
  .max(200)
  // Asynchronous (the list loads on first use): parse with safeParseAsync, as the request pipeline does.
  .refine(async (p) => !(await isCommonPassword(p)), "is one of the most common passwords, the first ones guessed: choose another");

/** "admin": an operator of the deployment (set with the CLI); sees the media nodes. */
export const Role = z.enum(["user", "admin"]);
export type Role = z.infer<typeof Role>;

export const SignUp = z.strictObject({
  email: Email,
  password: Password,
  name: z.string().trim().min(1).max(100).optional(),
});
export type SignUp = z.infer<typeof SignUp>;

/** The token of a mailed sign-up link (lib/users/verification.ts). */
export const VerifySignUp = z.strictObject({ token: z.string().min(1).max(4096) });

export const User = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().optional(),
    createdAt: z.number(),
  })
  .meta({ id: "User" });
export type User = z.infer<typeof User>;
