import { sendMail } from "@/lib/mail";
import { inngest } from "@/lib/jobs/client";
import { mailRequested } from "@/lib/jobs/events";

/** Sends a mail through SMTP_URL; a mail server that is down or refuses for now is tried again. */
export const sendRequestedMail = inngest.createFunction({ id: "mail-send", triggers: [mailRequested], retries: 4 }, async ({ event, step }) => {
  await step.run("send", () => sendMail(event.data));
});
