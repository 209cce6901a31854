/**
 * What domain code says when it refuses: neutral kinds that know nothing of HTTP. Only the
 * request pipeline maps them to statuses (lib/api/errors.ts); jobs and the CLI read the message.
 */
export type RefusalKind = "invalid" | "unprocessable" | "forbidden" | "not-found" | "timeout" | "conflict" | "too-large" | "unavailable" | "too-many";

export class Refusal extends Error {
  constructor(
    readonly kind: RefusalKind,
    message: string,
    /** When trying again may work (a conflict that will pass). */
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = "Refusal";
  }
}

/** A business rule the request breaks. */
export const invalid = (message: string) => new Refusal("invalid", message);
/** Content the request carries (a file) that cannot be used as it is: the reason says where. */
export const unprocessable = (message: string) => new Refusal("unprocessable", message);
export const forbidden = (message: string) => new Refusal("forbidden", message);
/** Unknown ids and other users' ids look the same, so nobody learns what exists. */
export const notFound = (what: string) => new Refusal("not-found", `${what} not found`);
export const conflict = (message: string, retryAfterS?: number) => new Refusal("conflict", message, retryAfterS);
/** The client stopped sending. */
export const timedOut = (message: string) => new Refusal("timeout", message);
export const unavailable = (message: string, retryAfterS?: number) => new Refusal("unavailable", message, retryAfterS);
/** Too many tries in a while (a rate limit): trying again after `retryAfterS` may work. */
export const tooMany = (message: string, retryAfterS: number) => new Refusal("too-many", message, retryAfterS);
