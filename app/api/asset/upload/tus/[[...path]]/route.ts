import { operations } from "@/lib/api/operations";
import { rawRoute } from "@/lib/api/route";
import { handleTus } from "@/lib/assets/upload/tus-server";

/**
 * The tus endpoint of request-upload (tusEndpoint). No GET: finished uploads
 * move to the asset's storage and are not served from here.
 */
export const POST = rawRoute(operations.uploadTusCreate, handleTus);
export const HEAD = rawRoute(operations.uploadTusOffset, handleTus);
export const PATCH = rawRoute(operations.uploadTusAppend, handleTus);
export const DELETE = rawRoute(operations.uploadTusCancel, handleTus);
export const OPTIONS = handleTus;
