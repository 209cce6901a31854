import { created, route } from "@/lib/api/route";
import { ExportAsset } from "@/lib/assets/schema";
import { exportAsset } from "@/lib/assets/service";

export const POST = route({ auth: "user", body: ExportAsset }, async ({ caller, params, body }) =>
  created(await exportAsset(caller.userId, params.id, body)),
);
