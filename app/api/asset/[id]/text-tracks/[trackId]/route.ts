import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { deleteTextTrack } from "@/lib/assets/text-tracks";

export const DELETE = route(operations.deleteTextTrack, ({ caller, params }) => deleteTextTrack(caller.userId, params.id, params.trackId));
