"use client";

import { useEffect, useRef, useState, type PointerEvent, type ReactNode } from "react";
import { parseThumbnailsVtt, thumbnailAt, type SeekThumbnail } from "@/lib/client/seek-thumbnails";
import { formatTime } from "./controls";

/** The thumbnail track's cues, fetched once per URL; empty without one or when it fails (previews are a nicety). */
function useSeekThumbnails(vttUrl: string | undefined): SeekThumbnail[] {
  const [thumbnails, setThumbnails] = useState<SeekThumbnail[]>([]);
  useEffect(() => {
    setThumbnails([]);
    if (!vttUrl) return;
    const controller = new AbortController();
    fetch(vttUrl, { credentials: "omit", signal: controller.signal })
      .then((res) => (res.ok ? res.text() : ""))
      .then((text) => {
        const parsed = parseThumbnailsVtt(text, vttUrl);
        // A few sprite sheets hold them all: fetched now, a tile shows at the first hover, not a moment later.
        for (const url of new Set(parsed.map((t) => t.url))) new Image().src = url;
        setThumbnails(parsed);
      })
      .catch(() => {});
    return () => controller.abort();
  }, [vttUrl]);
  return thumbnails;
}

/**
 * Wraps the seek bar: while the pointer is over it (hovering, or dragging the thumb),
 * shows the time there and, when the video has a thumbnail track, the frame.
 */
export function SeekPreview({ vttUrl, duration, className = "", children }: { vttUrl?: string; duration: number; className?: string; children: ReactNode }) {
  const thumbnails = useSeekThumbnails(vttUrl);
  const rootRef = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<{ x: number; width: number } | null>(null);

  const track = (event: PointerEvent) => {
    const rect = rootRef.current?.getBoundingClientRect();
    if (!rect?.width) return;
    setHover({ x: Math.min(rect.width, Math.max(0, event.clientX - rect.left)), width: rect.width });
  };

  const time = hover && duration > 0 ? (hover.x / hover.width) * duration : null;
  const thumbnail = time !== null ? thumbnailAt(thumbnails, time) : undefined;
  const tileWidth = thumbnail?.tile?.w ?? (thumbnail ? 160 : 0);
  const tileHeight = thumbnail?.tile?.h ?? (thumbnail ? 90 : 0);
  // The bubble stays inside the bar's ends.
  const half = Math.max(tileWidth, 48) / 2;
  const left = hover ? Math.min(Math.max(hover.x, half), Math.max(half, hover.width - half)) : 0;

  return (
    <div ref={rootRef} className={`relative ${className}`} onPointerMove={track} onPointerDown={track} onPointerLeave={() => setHover(null)}>
      {children}
      {time !== null && (
        <div
          data-testid="seek-preview"
          aria-hidden="true"
          className="pointer-events-none absolute bottom-full mb-2 flex -translate-x-1/2 flex-col items-center gap-1"
          style={{ left }}
        >
          {thumbnail && (
            <div
              data-testid="seek-thumbnail"
              className="overflow-hidden rounded-md bg-black bg-no-repeat shadow-lg ring-2 ring-white/80"
              style={{
                width: tileWidth,
                height: tileHeight,
                backgroundImage: `url("${thumbnail.url}")`,
                backgroundPosition: thumbnail.tile ? `-${thumbnail.tile.x}px -${thumbnail.tile.y}px` : "center",
                backgroundSize: thumbnail.tile ? undefined : "cover",
              }}
            />
          )}
          <span className="rounded bg-black/75 px-1.5 py-0.5 text-xs font-medium text-white tabular-nums">{formatTime(time)}</span>
        </div>
      )}
    </div>
  );
}
