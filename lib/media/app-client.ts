import { HeartbeatReply, PublishGrant, type Heartbeat, type SessionEvent } from "@/lib/live/schema";

/**
 * How a media node talks to the app: the internal media API, authenticated
 * with the deployment's MEDIA_SECRET. A media node on another machine only
 * needs APP_URL and MEDIA_SECRET.
 */
export class AppClient {
  constructor(
    private readonly appUrl: string,
    private readonly secret: string,
  ) {}

  private async post(path: string, body: unknown): Promise<Response> {
    return fetch(`${this.appUrl}/api/internal/media/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-media-secret": this.secret },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
  }

  /** The grant, or the reason the app refuses this publish. */
  async publish(streamKey: string, nodeId: string): Promise<PublishGrant | { refused: string }> {
    const res = await this.post("publish", { streamKey, nodeId });
    const body = await res.json();
    if (res.status === 403) return { refused: body.errors?.[0] ?? "refused" };
    if (!res.ok) throw new Error(`publish check failed: ${res.status} ${JSON.stringify(body)}`);
    return PublishGrant.parse(body);
  }

  async heartbeat(beat: Heartbeat): Promise<HeartbeatReply> {
    const res = await this.post("heartbeat", beat);
    if (!res.ok) throw new Error(`heartbeat failed: ${res.status}`);
    return HeartbeatReply.parse(await res.json());
  }

  async event(event: SessionEvent): Promise<void> {
    const res = await this.post("event", event);
    if (!res.ok) throw new Error(`event ${event.kind} failed: ${res.status} ${await res.text()}`);
  }
}
