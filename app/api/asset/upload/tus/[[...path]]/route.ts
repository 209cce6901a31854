import { handleTus } from "@/lib/assets/tus";

/**
 * The tus endpoint of request-upload (tusEndpoint). No GET: finished uploads
 * move to the asset's storage and are not served from here.
 */
const handle = (req: Request) => handleTus(req);

export { handle as POST, handle as PATCH, handle as HEAD, handle as OPTIONS, handle as DELETE };
