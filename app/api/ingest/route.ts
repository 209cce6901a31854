import { route } from "@/lib/api/route";
import { ingestFor } from "@/lib/live/ingest";

/** Ingest points for encoders (no auth, as Livepeer's). */
export const GET = route({ auth: "none" }, ({ req }) => ingestFor(req.headers.get("host")));
