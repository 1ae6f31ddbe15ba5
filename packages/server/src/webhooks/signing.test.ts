// Signatures checked by the reference implementation, the `standardwebhooks` package: what a receiver following
// the Standard Webhooks specification runs.
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newWebhookSecret, SECRET_PREFIX, signatureOf, signedHeaders } from "./signing.ts";

describe("webhook signing", () => {
  const body = JSON.stringify({ type: "name.issued", timestamp: "2026-01-01T00:00:00.000Z", data: { x: 1 } });
  const now = Math.floor(Date.now() / 1000);

  it("makes whsec_ secrets of 32 random bytes", () => {
    const secret = newWebhookSecret();
    expect(secret.startsWith(SECRET_PREFIX)).toBe(true);
    expect(Buffer.from(secret.slice(SECRET_PREFIX.length), "base64")).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it("signs so that standardwebhooks verifies, and its own signature is the same string", () => {
    const secret = newWebhookSecret();
    const headers = signedHeaders([secret], "msg_1", now, body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(headers["webhook-signature"]).toBe(new Webhook(secret).sign("msg_1", new Date(now * 1000), body));
  });

  it("carries one signature per secret during a rotation; either secret verifies", () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const headers = signedHeaders([current, previous], "msg_2", now, body);
    expect(headers["webhook-signature"]?.split(" ")).toEqual([
      signatureOf(current, "msg_2", now, body),
      signatureOf(previous, "msg_2", now, body),
    ]);
    expect(new Webhook(current).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(/No matching signature/);
  });

  it("binds the id, the timestamp and the body", () => {
    const secret = newWebhookSecret();
    const headers = signedHeaders([secret], "msg_3", now, body);
    const verify =
      (h: Record<string, string>, b = body) =>
      () =>
        new Webhook(secret).verify(b, h);
    expect(verify({ ...headers, "webhook-id": "msg_4" })).toThrow();
    expect(verify({ ...headers, "webhook-timestamp": String(now + 1) })).toThrow();
    expect(verify(headers, `${body} `)).toThrow();
  });
});
