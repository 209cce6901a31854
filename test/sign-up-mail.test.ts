import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import type { AppProcess } from "../scripts/app-process";
import { call, signInAt, type Res } from "./support/client";
import { until } from "./support/media";
import { startScratchApp } from "./support/scratch-app";
import { startSmtpServer, type ReceivedMail } from "./support/smtp";

/**
 * With a mail server (SMTP_URL), sign-up proves the address: the account is made from a link
 * mailed to it. Whether an address had an account is then told to its mailbox only, and nobody
 * can take an address they cannot read. (Without mail: test/auth.test.ts.)
 */

let app: AppProcess;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

before(async () => {
  smtp = await startSmtpServer();
  app = await startScratchApp({ SMTP_URL: smtp.url, MAIL_FROM: "Castline <castline@example.com>" });
});
after(async () => {
  await app?.stop();
  await smtp?.close();
});

const signUp = (email: string, password: string) => call("POST", `${app.url}/api/user`, { body: { email, password, name: "Ada" } });
const verify = (token: string) => call("POST", `${app.url}/api/user/verify`, { body: { token } });
const signsIn = (email: string, password: string) =>
  signInAt(app.url, email, password).then(
    () => true,
    () => false,
  );

/** The next mail to `to` (mails come from a background job), once it has arrived. */
const mailTo = (to: string, seen = 0) => until(`a mail to ${to}`, async () => smtp.mails.filter((m) => m.to.includes(to))[seen], 60_000);

/** The sign-up link's token: what follows `#` in the link the mail holds. */
function linkIn(mail: ReceivedMail): { url: URL; token: string } | undefined {
  const link = /https?:\/\/\S+\/sign-up\/verify#(\S+)/.exec(mail.text);
  return link ? { url: new URL(link[0]), token: link[1] } : undefined;
}

const shape = (res: Res) => [
  res.status,
  res.headers.get("content-type"),
  ...Object.entries(res.body)
    .map(([k, v]) => `${k}:${typeof v}`)
    .sort(),
];

/** A new address with an account made through its mailed link. */
async function accountFor(email: string, password: string) {
  assert.equal((await signUp(email, password)).status, 201);
  const made = await verify(linkIn(await mailTo(email))!.token);
  assert.equal(made.status, 201, JSON.stringify(made.body));
  return made.body;
}

describe("sign-up by mailed link (SMTP_URL)", () => {
  test("a new address gets a link that makes the account; nothing signs in before it is followed", async () => {
    const email = `new-${randomUUID()}@example.com`;
    const answer = await signUp(email, "the right password");
    assert.equal(answer.status, 201);
    assert.equal(await signsIn(email, "the right password"), false, "no account before the link");

    const mail = await mailTo(email);
    assert.match(mail.subject, /Confirm your email/);
    const link = linkIn(mail);
    assert.ok(link, mail.text);
    assert.equal(link.url.origin, new URL(app.url).origin, "the link is at the origin signed up through");
    assert.equal((await call("GET", link.url.toString())).status, 200, "the page the link opens");

    const made = await verify(link.token);
    assert.equal(made.status, 201);
    assert.deepEqual(made.body, answer.body, "the account is the one sign-up answered");
    assert.equal(await signsIn(email, "the right password"), true);
    assert.deepEqual((await verify(link.token)).body, answer.body, "following the link again changes nothing");
  });

  test("a taken address answers as a new one, and gets a mail saying so, with no link", async () => {
    const taken = `taken-${randomUUID()}@example.com`;
    await accountFor(taken, "the owner's password");
    const fresh = `fresh-${randomUUID()}@example.com`;

    const timed = async (email: string) => {
      const start = performance.now();
      const res = await signUp(email, "an intruder's password");
      return { res, ms: performance.now() - start };
    };
    const again = await timed(taken);
    const other = await timed(fresh);
    assert.deepEqual(shape(again.res), shape(other.res));
    // Both hash the password and queue one mail: skipping either would answer several times faster.
    const median = async (email: () => string) => {
      const ms = [];
      for (let i = 0; i < 3; i++) ms.push((await timed(email())).ms);
      return ms.sort((a, b) => a - b)[1];
    };
    const forTaken = await median(() => taken);
    const forNew = await median(() => `timing-${randomUUID()}@example.com`);
    assert.ok(forTaken > forNew / 3 && forNew > forTaken / 3, `taken ${forTaken.toFixed(0)} ms vs new ${forNew.toFixed(0)} ms`);
    // What the client can do next is the same too: neither signs in.
    assert.equal(await signsIn(taken, "an intruder's password"), false);
    assert.equal(await signsIn(fresh, "an intruder's password"), false);

    const told = await mailTo(taken, 1);
    assert.match(told.text, /has an account already/);
    assert.equal(linkIn(told), undefined);
    assert.ok(linkIn(await mailTo(fresh)), "the new address got its link");
    assert.equal(await signsIn(taken, "the owner's password"), true, "the account is unchanged");
  });

  test("nobody takes an address they cannot read: the owner's own link makes the account, with the owner's password", async () => {
    const victim = `victim-${randomUUID()}@example.com`;
    assert.equal((await signUp(victim, "the intruder's password")).status, 201);
    const intrudersLink = linkIn(await mailTo(victim))!; // in the victim's mailbox, not the intruder's
    assert.equal((await signUp(victim, "the victim's password")).status, 201);
    const ownLink = linkIn(await mailTo(victim, 1))!;
    assert.equal((await verify(ownLink.token)).status, 201);
    assert.equal(await signsIn(victim, "the victim's password"), true);
    assert.equal(await signsIn(victim, "the intruder's password"), false);
    assert.equal((await verify(intrudersLink.token)).status, 409, "a second link for the address makes nothing");
  });

  test("an altered or made-up link is refused and makes nothing", async () => {
    const email = `altered-${randomUUID()}@example.com`;
    assert.equal((await signUp(email, "the right password")).status, 201);
    const { token } = linkIn(await mailTo(email))!;
    const flipped = token.slice(0, -2) + (token.at(-2) === "A" ? "B" : "A") + token.at(-1);
    for (const bad of [flipped, "sealed.v1.AAAA.BBBB", "nonsense"]) {
      const res = await verify(bad);
      assert.equal(res.status, 400, bad);
      assert.match(res.body.errors[0], /not valid or has expired/);
    }
    assert.equal((await verify("")).status, 422);
    assert.equal(await signsIn(email, "the right password"), false);
  });
});
