import { ApiError } from "@/lib/api/errors";
import { created, route } from "@/lib/api/route";
import { config } from "@/lib/config";
import { SignUp } from "@/lib/users/schema";
import { signUp } from "@/lib/users/service";

/**
 * Sign-up for the dashboard (no auth); it answers alike whether or not the email has an
 * account. Operators can turn it off with ALLOW_SIGNUP=false.
 */
export const POST = route({ auth: "none", body: SignUp }, async ({ body }) => {
  if (!config().ALLOW_SIGNUP) throw new ApiError(403, ["sign-up is disabled on this server; ask an operator for an account"]);
  return created(await signUp(body));
});
