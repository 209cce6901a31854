import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { getUser } from "@/lib/users/service";

export const GET = route(operations.getMe, ({ caller }) => getUser(caller.userId));
