/**
 * Where live media lives in the object store. Every key carries the session's
 * epoch: a node writes only under its own, so a node fenced off (declared lost,
 * or replaced by a reconnect elsewhere) can never overwrite what the current one wrote.
 */
export const liveKey = (sessionId: string, epoch: number, file = "") => `live/${sessionId}/${epoch}/${file}`;
export const recordingKey = (sessionId: string, epoch: number, file = "") => `recordings/${sessionId}/${epoch}/${file}`;

/** The latest frame of a live session, refreshed every few seconds while it is live. */
export const liveThumbnailKey = (sessionId: string, epoch: number) => liveKey(sessionId, epoch, "thumbnail.jpg");
/** The source rendition's folder: the DVR clips of live streams are cut from (lib/live/dvr.ts). */
export const SOURCE_VARIANT = "v0";

/** What a media node may write through the app (and nothing else): live HLS, its thumbnail and recording segments. */
export const MEDIA_OBJECT_KEY = /^(live|recordings)\/[\w-]{1,64}\/\d{1,9}\/(([\w-]{1,16}\/)?[\w-]{1,64}\.(m3u8|ts)|thumbnail\.jpg)$/;
/** What a media node may remove: one epoch's folder of live HLS, or one rendition's folder of it. */
export const MEDIA_PREFIX = /^live\/[\w-]{1,64}\/\d{1,9}\/(v\d{1,3}\/)?$/;
