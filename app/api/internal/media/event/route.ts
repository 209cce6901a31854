import { noContent, route } from "@/lib/api/route";
import { SessionEvent } from "@/lib/live/schema";
import { multistreamChanged, sessionEnded, sessionReady } from "@/lib/live/service";

export const POST = route({ auth: "media", body: SessionEvent }, async ({ body }) => {
  if (body.kind === "ready") await sessionReady(body.sessionId);
  else if (body.kind === "ended") await sessionEnded(body.sessionId, body.recordingPath);
  else await multistreamChanged(body.sessionId, body.targetId, body.state, body.error);
  return noContent();
});
