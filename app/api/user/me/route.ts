import { notFound } from "@/lib/api/errors";
import { route } from "@/lib/api/route";
import { findUserById, serializeUser } from "@/lib/users/service";

export const GET = route({ auth: "user" }, async ({ caller }) => {
  const user = await findUserById(caller.userId);
  if (!user) throw notFound("user");
  return serializeUser(user);
});
