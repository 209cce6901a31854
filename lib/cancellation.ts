import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The cancellation signal of the work in progress, without passing it through every call:
 * background work that may be called off (an asset's jobs, when it is deleted) runs inside
 * cancellable(), and long operations deep inside it (ffmpeg runs) stop when it fires.
 */
const current = new AsyncLocalStorage<AbortSignal>();

export const cancellable = <T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> => current.run(signal, work);

/** The signal of the work this code runs for, if it can be called off. */
export const cancellation = (): AbortSignal | undefined => current.getStore();
