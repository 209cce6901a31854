import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { signUp } from "@/lib/users/service";

/** Sign-up for the dashboard (no auth); it answers alike whether or not the email has an account. */
export const POST = route(operations.signUp, ({ body }) => signUp(body));
