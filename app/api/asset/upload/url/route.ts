/** Livepeer's path for an import from a URL, which the livepeer SDK's asset.createViaUrl calls. */
export { POST } from "../../import/route";
