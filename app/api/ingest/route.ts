import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { ingests } from "@/lib/live/ingest-urls";

/** Ingest points for encoders (no auth, as Livepeer's). */
export const GET = route(operations.listIngests, () => ingests());
