import { ApiError, validationError } from "@/lib/api/errors";
import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { MAX_CAPTION_BYTES } from "@/lib/assets/captions";
import { TextTrackFromUrl } from "@/lib/assets/schema";
import { addTextTrack, listTextTracks } from "@/lib/assets/text-tracks";
import { requestBody } from "@/lib/bounded-body";

export const GET = route(operations.listTextTracks, ({ caller, params }) => listTextTracks(caller.userId, params.id));

/** Caption files come as these; JSON names a URL to fetch them from. */
const FILE_TYPES = /^(text\/vtt|application\/x-subrip|text\/srt|application\/srt|text\/plain|application\/octet-stream)\s*(;|$)/i;

export const POST = route(operations.createTextTrack, async ({ req, caller, params, query }) => {
  const type = req.headers.get("content-type") ?? "";
  if (/^application\/json\s*(;|$)/i.test(type)) {
    const parsed = TextTrackFromUrl.safeParse(await jsonBody(req));
    if (!parsed.success) throw validationError(parsed.error, "body");
    const { url, ...track } = parsed.data;
    return addTextTrack(caller.userId, params.id, { ...track, file: { url } });
  }
  if (!FILE_TYPES.test(type)) {
    throw new ApiError(415, ["content-type must be application/json (a URL to fetch), or text/vtt, application/x-subrip or text/plain (the file)"]);
  }
  if (!query.language) throw new ApiError(422, ["language: required in the query with an uploaded file (?language=en)"]);
  return addTextTrack(caller.userId, params.id, { language: query.language, name: query.name, file: { bytes: await fileBody(req) } });
});

async function jsonBody(req: Request): Promise<unknown> {
  const text = new TextDecoder().decode(await fileBody(req));
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, ["request body is not valid JSON"]);
  }
}

/** The body, refused as soon as it is over the limit (a caption file is small). */
function fileBody(req: Request): Promise<Buffer> {
  return requestBody(req, MAX_CAPTION_BYTES, "the caption file");
}
