import fs from "node:fs/promises";
import path from "node:path";

export async function GET() {
  const file = path.join(process.cwd(), "node_modules/@scalar/api-reference/dist/browser/standalone.js");
  return new Response(await fs.readFile(file), {
    headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" },
  });
}
