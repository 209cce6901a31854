import { created, route } from "@/lib/api/route";
import { ImportAsset } from "@/lib/assets/schema";
import { importAsset } from "@/lib/assets/service";

export const POST = route({ auth: "user", body: ImportAsset }, async ({ caller, body }) => created(await importAsset(caller.userId, body)));
