import { operations } from "@/lib/api/operations";
import { clientAddressOf } from "@/lib/api/rate-limit";
import { route } from "@/lib/api/route";
import { signUp } from "@/lib/users/sign-up";

/** Sign-up for the dashboard (no auth); it answers alike whether or not the email has an account. */
export const POST = route(operations.signUp, ({ body, req }) => signUp(body, clientAddressOf(req)));
