/**
 * Where live media lives in the object store. Every key carries the session's
 * epoch: a node writes only under its own, so a node fenced off (declared lost,
 * or replaced by a reconnect elsewhere) can never overwrite what the current one wrote.
 */
export const liveKey = (sessionId: string, epoch: number, file = "") => `live/${sessionId}/${epoch}/${file}`;
export const recordingKey = (sessionId: string, epoch: number, file = "") => `recordings/${sessionId}/${epoch}/${file}`;

/** What a media node may write through the app (and nothing else): live HLS and recording segments. */
export const MEDIA_OBJECT_KEY = /^(live|recordings)\/[\w-]{1,64}\/\d{1,9}\/([\w-]{1,16}\/)?[\w-]{1,64}\.(m3u8|ts)$/;
/** What a media node may remove: one epoch's folder of live HLS. */
export const MEDIA_PREFIX = /^live\/[\w-]{1,64}\/\d{1,9}\/$/;
