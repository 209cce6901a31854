import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { ingestFor } from "@/lib/live/ingest";

/** Ingest points for encoders (no auth, as Livepeer's). */
export const GET = route(operations.listIngests, ({ req }) => ingestFor(req.headers.get("host")));
