import { Inngest } from "inngest";

/**
 * The one Inngest client. Its mode, keys and URLs come from the environment
 * (INNGEST_DEV, INNGEST_BASE_URL, INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY), so the same
 * functions run unchanged under an Inngest server and under the built-in driver. It lives
 * here, below the domains, because emit() sends through it as well as the functions
 * (inngest/functions) being made with it.
 */
export const inngest = new Inngest({ id: "castline" });
