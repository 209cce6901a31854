import type { ViewerRefusal } from "@/lib/access/refusal";
import type { PlaybackType } from "./schema";

/** What a viewer is shown: a stream (live) or a video (an asset, a recording). */
export type ContentKind = "stream" | "video";

export const kindOf = (type: PlaybackType): ContentKind => (type === "live" ? "stream" : "video");

/** Why nothing plays, as the player knows it. `kind` is unknown for what was not found. */
export type NotPlaying =
  | { status: "loading" }
  | { status: "offline" }
  /** A stream between broadcasts whose latest one can be watched again. */
  | { status: "ended" }
  | { status: "not-found" }
  | { status: "unreachable" }
  /** Gated, and no credential was given. */
  | { status: "private"; kind?: ContentKind }
  /** Gated, and the credential was refused: expired, not valid, the owner's webhook said no, or another site. */
  | { status: "refused"; kind?: ContentKind; refusal: Extract<ViewerRefusal, "expired" | "refused" | "site-not-allowed">; reason?: string }
  /** Gated, and the owner's access check failed: nobody refused, it is asked again. */
  | { status: "unavailable"; kind?: ContentKind };

export interface ViewerMessage {
  icon: "spinner" | "offline" | "alert" | "lock" | "replay";
  title: string;
  hint: string;
}

/**
 * Every message a viewer's player shows instead of playing: the one place that decides the
 * wording. It names what the content is (a stream or a video) and why it does not play; a
 * link is said to have expired only when the server said its credential is past its expiry.
 */
export function viewerMessage(state: NotPlaying): ViewerMessage {
  switch (state.status) {
    case "loading":
      return { icon: "spinner", title: "Loading…", hint: "" };
    case "offline":
      return { icon: "offline", title: "This stream is offline", hint: "It will start playing here as soon as the broadcast begins." };
    case "ended":
      return { icon: "replay", title: "The broadcast has ended", hint: "Watch it again now. The next broadcast starts playing here by itself." };
    case "not-found":
      return { icon: "alert", title: "Nothing to play here", hint: "The link may be wrong, or the stream or video has been deleted." };
    case "unreachable":
      return { icon: "alert", title: "Can’t reach the server", hint: "Trying again…" };
    case "private":
      return {
        icon: "lock",
        title: `This ${state.kind ?? "video"} is private`,
        hint: "A viewing token is needed to watch it. Ask whoever shared it for a link that includes one.",
      };
    case "unavailable":
      return {
        icon: "alert",
        title: "Access check unavailable",
        hint: `The site that shares this ${state.kind ?? "video"} could not confirm your access just now. Try again later: this player retries by itself.`,
      };
    case "refused":
      return refusalMessage(state.refusal, state.kind ?? "video", state.reason);
  }
}

function refusalMessage(refusal: Extract<NotPlaying, { status: "refused" }>["refusal"], kind: ContentKind, reason: string | undefined): ViewerMessage {
  switch (refusal) {
    case "expired":
      return { icon: "lock", title: "This link has expired", hint: `Ask whoever shared this ${kind} for a new link.` };
    case "refused":
      return { icon: "lock", title: `You can’t watch this ${kind}`, hint: reason ? sentence(reason) : "The viewing token was refused." };
    case "site-not-allowed":
      return { icon: "lock", title: `This ${kind} can’t play here`, hint: reason ? sentence(reason) : "This site is not allowed to show it." };
  }
}

/** The server's reason, as a sentence. */
const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? "" : "."}`;
