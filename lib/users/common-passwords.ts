import { dictionary } from "@zxcvbn-ts/language-common";

/**
 * The most common passwords (zxcvbn-ts's list, ~49,000 from leaked-password corpora, shipped
 * in its npm package). Those under 8 characters are refused by length anyway.
 */
const COMMON = new Set(dictionary["passwords-common"].filter((p) => p.length >= 8));

/** Whether a password is one of the most common ones, in any letter case. */
export const isCommonPassword = (password: string) => COMMON.has(password.toLowerCase());
