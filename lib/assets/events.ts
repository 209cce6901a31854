/** Events that start the asset pipeline's background functions (inngest/functions/assets.ts). */
export const ASSET_SOURCE_STORED = "asset/source.stored";
export const ASSET_UPLOAD_AWAITED = "asset/upload.awaited";
export const ASSET_IMPORT_REQUESTED = "asset/import.requested";
export const ASSET_EXPORT_REQUESTED = "asset/export.requested";
