import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { test } from "node:test";
import { signatureHeaders } from "@/lib/webhooks/signature";

test("deliveries carry Livepeer's body signature and Castline's time-bound one", () => {
  const body = JSON.stringify({ event: "stream.started" });
  const headers = signatureHeaders("whsec", body, 1234);
  const hmac = (text: string) => createHmac("sha256", "whsec").update(text).digest("hex");
  assert.equal(headers["livepeer-signature"], `t=1234,v1=${hmac(body)}`);
  assert.equal(headers["castline-signature"], `t=1234,v1=${hmac(`1234.${body}`)}`);
  assert.notEqual(signatureHeaders("other", body, 1234)["castline-signature"], headers["castline-signature"]);
});
