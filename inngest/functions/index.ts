import type { InngestFunction } from "inngest";
import { awaitUpload, exportAsset, importAsset, processAsset, purgeAsset } from "./assets";
import { makeClipAsset } from "./clips";
import { retireLiveDvr } from "./live";
import { sendRequestedMail } from "./mail";
import { finalizeRecording } from "./recordings";
import { transcodeRenditionChunk } from "./renditions";
import { deliverWebhook } from "./webhooks";

/**
 * Every background function, served at /api/inngest for an Inngest server and run by
 * the built-in driver otherwise (inngest/start.ts). Add each new function here (a unit
 * test, test/unit/functions-registry.test.ts, fails on one left out); code starts them
 * only through emit() from lib/jobs/emit.ts.
 */
export const functions: InngestFunction.Any[] = [
  deliverWebhook,
  finalizeRecording,
  processAsset,
  importAsset,
  awaitUpload,
  exportAsset,
  purgeAsset,
  transcodeRenditionChunk,
  makeClipAsset,
  retireLiveDvr,
  sendRequestedMail,
];
