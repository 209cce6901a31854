import { forbidden } from "@/lib/api/errors";
import { route } from "@/lib/api/route";
import { PublishRequest } from "@/lib/live/schema";
import { authorizePublish, PublishRefused } from "@/lib/live/service";

/** A media node asks whether a stream key may publish; 403 says why not. */
export const POST = route({ auth: "media", body: PublishRequest }, async ({ body }) => {
  try {
    return await authorizePublish(body.streamKey, body.nodeId);
  } catch (err) {
    if (err instanceof PublishRefused) throw forbidden(err.message);
    throw err;
  }
});
