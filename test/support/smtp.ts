import net from "node:net";
import type { AddressInfo } from "node:net";

/** A mail as the SMTP server received it; `text` is its body, decoded. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

/** A quoted-printable body as written: soft line breaks joined, =XX bytes decoded. */
const fromQuotedPrintable = (body: string) =>
  Buffer.from(
    body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    "latin1",
  ).toString("utf8");

function parse(to: string[], data: string): ReceivedMail {
  const [head, ...rest] = data.split("\r\n\r\n");
  const body = rest.join("\r\n\r\n");
  const headers = head.replace(/\r\n[ \t]+/g, " ");
  const subject = /^subject: (.*)$/im.exec(headers)?.[1] ?? "";
  const text = /^content-transfer-encoding: quoted-printable$/im.test(headers) ? fromQuotedPrintable(body) : body;
  return { to, subject, text: text.replace(/\r\n/g, "\n") };
}

/**
 * The smallest SMTP server a mail client delivers to (no TLS, no auth): what Castline sends
 * through SMTP_URL arrives in `mails`. Loopback only.
 */
export async function startSmtpServer() {
  const mails: ReceivedMail[] = [];
  const server = net.createServer((socket) => {
    let buffer = "";
    let to: string[] = [];
    let data: string | undefined;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 castline-test ESMTP");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("latin1");
      for (let end = buffer.indexOf("\r\n"); end >= 0; end = buffer.indexOf("\r\n")) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data !== undefined) {
          if (line !== ".") data += `${line.startsWith(".") ? line.slice(1) : line}\r\n`;
          else {
            mails.push(parse(to, data));
            [to, data] = [[], undefined];
            reply("250 queued");
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") reply("250 castline-test");
        else if (verb === "MAIL" || verb === "RSET" || verb === "NOOP") reply("250 ok");
        else if (verb === "RCPT") {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? "");
          reply("250 ok");
        } else if (verb === "DATA") {
          data = "";
          reply("354 end with <CRLF>.<CRLF>");
        } else if (verb === "QUIT") {
          reply("221 bye");
          socket.end();
        } else reply("502 not implemented");
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    mails,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
