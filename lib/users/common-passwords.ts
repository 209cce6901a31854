/**
 * The most common passwords (zxcvbn-ts's list, ~49,000 from leaked-password corpora, shipped
 * in its npm package). Those under 8 characters are refused by length anyway. The list (380 kB)
 * is loaded on the first check, not with the module: the sign-up schema reaches the browser's
 * bundle with the operation declarations (lib/api/client.ts), where nothing checks a password.
 */
let common: Promise<Set<string>> | undefined;

/** Whether a password is one of the most common ones, in any letter case. */
export async function isCommonPassword(password: string): Promise<boolean> {
  common ??= import("@zxcvbn-ts/language-common").then(({ dictionary }) => new Set(dictionary["passwords-common"].filter((p) => p.length >= 8)));
  return (await common).has(password.toLowerCase());
}
