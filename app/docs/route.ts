import { referencePage } from "@/lib/api/reference-page";

/** The API reference (Scalar), rendered from /api/openapi.json; everything it loads comes from this server. */
export const dynamic = "force-static";

export function GET() {
  return new Response(referencePage(), { headers: { "content-type": "text/html; charset=utf-8" } });
}
