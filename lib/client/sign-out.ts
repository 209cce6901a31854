import { signOut } from "next-auth/react";
import { forgetTabSecrets } from "./tab-secrets";

let signingOut = false;

/**
 * Signs out of the dashboard (the session ends on the server at once). The page's calls
 * still in flight then fail with 401: that is no reason to send the user to sign in and
 * back to this page (see app/providers.tsx), so they are told apart.
 */
export function signOutOfDashboard() {
  signingOut = true;
  forgetTabSecrets();
  return signOut({ redirectTo: "/sign-in" });
}

export const isSigningOut = () => signingOut;
