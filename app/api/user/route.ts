import { ApiError } from "@/lib/api/errors";
import { created, route } from "@/lib/api/route";
import { config } from "@/lib/config";
import { SignUp } from "@/lib/users/schema";
import { createUser, serializeUser } from "@/lib/users/service";

/** Sign-up for the dashboard (no auth). Operators can turn it off with ALLOW_SIGNUP=false. */
export const POST = route({ auth: "none", body: SignUp }, async ({ body }) => {
  if (!config().ALLOW_SIGNUP) throw new ApiError(403, ["sign-up is disabled on this server; ask an operator for an account"]);
  return created(serializeUser(await createUser(body)));
});
