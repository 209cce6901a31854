"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Field, Select } from "@/components/ui/field";
import { AlertIcon, VideoIcon } from "@/components/ui/icons";
import { Switch } from "@/components/ui/switch";
import { publishOverWhip, type WhipPublish, WhipRefused } from "@/lib/client/whip";
import type { Stream } from "@/lib/streams/schema";

/** What the browser captures and sends: the size asked of the camera or screen, and the bitrate it may use. */
const QUALITIES = {
  "1080p": { width: 1920, height: 1080, kbps: 4500 },
  "720p": { width: 1280, height: 720, kbps: 2500 },
  "480p": { width: 854, height: 480, kbps: 1200 },
} as const;
type Quality = keyof typeof QUALITIES;
type Source = "camera" | "screen";
type State = "off" | "asking" | "preview" | "connecting" | "live";

/**
 * Going live without an encoder: the camera (or a screen) and the microphone of this browser,
 * previewed here, published over WebRTC (WHIP, /webrtc) with the stream's key. From there the
 * broadcast is like any other: the live preview, health and recording follow.
 */
export function BrowserBroadcastCard({ stream }: { stream: Stream }) {
  const [source, setSource] = useState<Source>("camera");
  const [microphone, setMicrophone] = useState(true);
  const [quality, setQuality] = useState<Quality>("720p");
  const [state, setState] = useState<State>("off");
  const [error, setError] = useState<string>();
  const media = useRef<MediaStream | undefined>(undefined);
  const publish = useRef<WhipPublish | undefined>(undefined);
  const preview = useRef<HTMLVideoElement>(null);

  const stop = async () => {
    const current = publish.current;
    publish.current = undefined;
    for (const track of media.current?.getTracks() ?? []) track.stop();
    media.current = undefined;
    if (preview.current) preview.current.srcObject = null;
    setState("off");
    await current?.stop();
  };
  // Leaving the page ends the broadcast and frees the camera.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on unmount only
  useEffect(() => () => void stop(), []);

  const ask = async () => {
    setError(undefined);
    setState("asking");
    try {
      media.current = await capture(source, microphone, QUALITIES[quality]);
      if (preview.current) preview.current.srcObject = media.current;
      // The browser's own "Stop sharing" ends the broadcast too.
      media.current.getVideoTracks()[0]?.addEventListener("ended", () => void stop());
      setState("preview");
    } catch (err) {
      setState("off");
      setError(captureProblem(err, source));
    }
  };

  const goLive = async () => {
    if (!media.current || !stream.streamKey) return;
    setError(undefined);
    setState("connecting");
    try {
      const published = await publishOverWhip(`${window.location.origin}/webrtc`, stream.streamKey, media.current, QUALITIES[quality].kbps);
      publish.current = published;
      const watch = () => {
        const s = published.pc.connectionState;
        if (s === "connected") setState("live");
        if ((s === "failed" || s === "disconnected") && publish.current === published) {
          setError("The connection to Castline was lost: the broadcast stopped. Go live again when your network is back.");
          void stop();
        }
      };
      published.pc.addEventListener("connectionstatechange", watch);
      watch();
    } catch (err) {
      setState("preview");
      setError(err instanceof WhipRefused ? refusalProblem(err) : `Castline could not be reached: ${(err as Error).message}`);
    }
  };

  const capturing = state === "preview" || state === "connecting" || state === "live";
  return (
    <Card id="browser-broadcast">
      <CardHeader
        icon={<VideoIcon className="size-4" />}
        title="Go live from this browser"
        description="No encoder needed: your camera or a screen, and your microphone, sent over WebRTC."
      />
      <CardBody className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Video" htmlFor="broadcast-source">
            <Select id="broadcast-source" value={source} disabled={capturing} onChange={(e) => setSource(e.target.value as Source)}>
              <option value="camera">Camera</option>
              <option value="screen">A screen or window</option>
            </Select>
          </Field>
          <Field label="Quality" htmlFor="broadcast-quality" hint={`Up to ${(QUALITIES[quality].kbps / 1000).toFixed(1)} Mb/s upload.`}>
            <Select id="broadcast-quality" value={quality} disabled={capturing} onChange={(e) => setQuality(e.target.value as Quality)}>
              {Object.keys(QUALITIES).map((q) => (
                <option key={q} value={q}>
                  {q}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <Switch checked={microphone} onChange={setMicrophone} disabled={capturing} label="Microphone" description="Send sound from your microphone." />

        <div className={capturing ? "relative aspect-video overflow-hidden rounded-lg bg-zinc-950" : "hidden"}>
          <video ref={preview} autoPlay muted playsInline className="size-full object-contain" aria-label="Your camera, as it is sent" />
          {state === "live" && (
            <span className="absolute top-2 left-2 rounded-md bg-red-600 px-2 py-0.5 text-xs font-semibold tracking-wide text-white uppercase">Sending</span>
          )}
        </div>

        {error && (
          <div role="alert" className="flex items-start gap-2.5 rounded-lg bg-red-50 px-3.5 py-3 text-sm text-red-800 ring-1 ring-red-200 ring-inset">
            <AlertIcon className="mt-0.5 size-4 shrink-0 text-red-600" />
            <p>{error}</p>
          </div>
        )}

        <div className="flex flex-wrap items-center gap-3">
          {(state === "off" || state === "asking") && (
            <Button onClick={() => void ask()} pending={state === "asking"} disabled={stream.suspended || !stream.streamKey}>
              {source === "camera" ? "Turn on camera" : "Choose a screen"}
            </Button>
          )}
          {(state === "preview" || state === "connecting") && (
            <>
              <Button variant="primary" onClick={() => void goLive()} pending={state === "connecting"}>
                Go live
              </Button>
              <Button variant="ghost" onClick={() => void stop()} disabled={state === "connecting"}>
                Cancel
              </Button>
            </>
          )}
          {state === "live" && (
            <Button variant="danger" onClick={() => void stop()}>
              Stop broadcast
            </Button>
          )}
          <p role="status" className="text-sm text-zinc-500">
            {state === "connecting"
              ? "Connecting to Castline…"
              : state === "live"
                ? "Sending to Castline: the stream goes live within a few seconds."
                : state === "preview"
                  ? "Check the preview, then go live."
                  : stream.suspended
                    ? "This stream is suspended."
                    : ""}
          </p>
        </div>
      </CardBody>
    </Card>
  );
}

async function capture(source: Source, microphone: boolean, size: { width: number; height: number }): Promise<MediaStream> {
  if (!navigator.mediaDevices) throw new DOMException("", "SecurityError");
  const video = { width: { ideal: size.width }, height: { ideal: size.height }, frameRate: { ideal: 30 } };
  if (source === "camera") return navigator.mediaDevices.getUserMedia({ video, audio: microphone });
  const screen = await navigator.mediaDevices.getDisplayMedia({ video, audio: false });
  if (!microphone) return screen;
  // The voice over the screen: the microphone's track beside the screen's.
  const voice = await navigator.mediaDevices.getUserMedia({ audio: true }).catch((err) => {
    for (const t of screen.getTracks()) t.stop();
    throw err;
  });
  return new MediaStream([...screen.getVideoTracks(), ...voice.getAudioTracks()]);
}

/** What a failed capture means for the creator, and what to do. */
function captureProblem(err: unknown, source: Source): string {
  const name = err instanceof DOMException ? err.name : "";
  if (name === "SecurityError") return "Browsers allow the camera and microphone only on secure pages: open the dashboard over HTTPS (or on localhost).";
  if (name === "NotAllowedError")
    return source === "screen"
      ? "Screen sharing was cancelled or blocked. Choose a screen again, or allow it in your browser's settings."
      : "Camera or microphone access is blocked for this site. Allow it from the icon in the address bar, then try again.";
  if (name === "NotFoundError")
    return source === "screen" ? "No microphone was found: turn the microphone off, or plug one in." : "No camera (or microphone) was found on this device.";
  if (name === "NotReadableError") return "The camera or microphone is in use by another application: close it and try again.";
  if (name === "OverconstrainedError") return "The camera cannot capture at this quality: choose a lower one.";
  return `The browser could not capture: ${(err as Error)?.message || "unknown error"}`;
}

function refusalProblem(err: WhipRefused): string {
  if (err.status === 409) return "This stream is already live: another encoder is publishing to it. Stop that one first.";
  if (err.status === 503) return "No media node can take the broadcast right now: try again in a moment.";
  return `Castline refused the broadcast: ${err.message}`;
}
