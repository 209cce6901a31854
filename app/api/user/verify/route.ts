import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { verifySignUp } from "@/lib/users/sign-up";

/** The account of a mailed sign-up link (SMTP_URL): made now that its address is proven. */
export const POST = route(operations.verifySignUp, ({ body }) => verifySignUp(body.token));
