import nodemailer, { type Transporter } from "nodemailer";
import { config } from "@/lib/config";

let transport: Transporter | undefined;

/** Whether Castline can send mail (SMTP_URL). */
export const canMail = () => Boolean(config().SMTP_URL);

/** A plain-text mail from MAIL_FROM, through SMTP_URL (nodemailer: STARTTLS, auth, encoding). */
export async function sendMail(message: { to: string; subject: string; text: string }) {
  const { SMTP_URL, MAIL_FROM } = config();
  if (!SMTP_URL) throw new Error("SMTP_URL is not set: Castline cannot send mail");
  transport ??= nodemailer.createTransport(SMTP_URL);
  await transport.sendMail({ from: MAIL_FROM, ...message });
}
