import { notFoundResponse, rangedResponse, type ServeOptions } from "@/lib/api/files";
import { objects } from "./index";

/** An object of the store as an HTTP response, with range requests, whichever store holds it. */
export async function objectResponse(key: string, req: Request, opts: ServeOptions) {
  const store = objects();
  const info = await store.stat(key);
  if (!info) return notFoundResponse();
  return rangedResponse(req, { ...info, open: (range) => store.read(key, range) }, key, opts);
}
