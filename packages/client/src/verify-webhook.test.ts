// verifyWebhook against deliveries signed by the reference implementation (`standardwebhooks`).
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { verifyWebhook, WebhookVerificationError } from "./verify-webhook.ts";

const secret = () => `whsec_${randomBytes(32).toString("base64")}`;
const event = { type: "name.issued", timestamp: "2026-05-01T00:00:00.000Z", data: { namespace: "acme" } };
const body = JSON.stringify(event);
const NOW = new Date("2026-05-01T00:00:10.000Z");

function signed(key: string, at = NOW, id = "msg_1", payload = body) {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(key).sign(id, at, payload),
  };
}

async function rejection(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  return "accepted";
}

describe("verifyWebhook", () => {
  it("types the event as the change-event union, narrowed on its type", async () => {
    const key = secret();
    const verified = await verifyWebhook(signed(key), body, key, { now: NOW });
    if (verified.type !== "name.issued") throw new Error("expected name.issued");
    // Compiles only while the union narrows: name.issued's own fields are typed.
    const holder: string = verified.data.holder ?? "";
    expect(holder).toBe("");
  });

  it("accepts a delivery the reference implementation signed, from a record, Headers or bytes", async () => {
    const key = secret();
    const headers = signed(key);
    expect(await verifyWebhook(headers, body, key, { now: NOW })).toEqual(event);
    expect(await verifyWebhook(new Headers(headers), body, key, { now: NOW })).toEqual(event);
    const mixed = {
      "Webhook-Id": headers["webhook-id"],
      "WEBHOOK-TIMESTAMP": [headers["webhook-timestamp"]],
      "webhook-signature": headers["webhook-signature"],
    };
    expect(await verifyWebhook(mixed, new TextEncoder().encode(body), key, { now: NOW })).toEqual(event);
  });

  it("accepts either secret of a rotation (several signatures)", async () => {
    const [current, previous] = [secret(), secret()];
    const headers = {
      ...signed(current),
      "webhook-signature": `${signed(current)["webhook-signature"]} ${signed(previous)["webhook-signature"]}`,
    };
    expect(await verifyWebhook(headers, body, current, { now: NOW })).toEqual(event);
    expect(await verifyWebhook(headers, body, previous, { now: NOW })).toEqual(event);
    expect(await rejection(verifyWebhook(headers, body, secret(), { now: NOW }))).toBe(
      "no_matching_signature",
    );
  });

  it("refuses another secret, a changed body, id or timestamp", async () => {
    const key = secret();
    const headers = signed(key);
    expect(await rejection(verifyWebhook(headers, body, secret(), { now: NOW }))).toBe(
      "no_matching_signature",
    );
    expect(await rejection(verifyWebhook(headers, `${body} `, key, { now: NOW }))).toBe(
      "no_matching_signature",
    );
    expect(
      await rejection(verifyWebhook({ ...headers, "webhook-id": "msg_2" }, body, key, { now: NOW })),
    ).toBe("no_matching_signature");
    const later = String(Number(headers["webhook-timestamp"]) + 1);
    expect(
      await rejection(verifyWebhook({ ...headers, "webhook-timestamp": later }, body, key, { now: NOW })),
    ).toBe("no_matching_signature");
    expect(
      await rejection(
        verifyWebhook({ ...headers, "webhook-signature": "v2,abc v1,!!!" }, body, key, { now: NOW }),
      ),
    ).toBe("no_matching_signature");
  });

  it("refuses a timestamp more than 5 minutes off the receiver's clock, either way", async () => {
    const key = secret();
    const minutes = (m: number) => new Date(NOW.getTime() + m * 60_000);
    expect(await verifyWebhook(signed(key, minutes(-5)), body, key, { now: NOW })).toEqual(event);
    expect(await rejection(verifyWebhook(signed(key, minutes(-5.1)), body, key, { now: NOW }))).toBe(
      "timestamp_too_old",
    );
    expect(await rejection(verifyWebhook(signed(key, minutes(5.1)), body, key, { now: NOW }))).toBe(
      "timestamp_too_new",
    );
    expect(
      await verifyWebhook(signed(key, minutes(-9)), body, key, { now: NOW, toleranceSeconds: 600 }),
    ).toEqual(event);
  });

  it("names what is missing or malformed", async () => {
    const key = secret();
    const { "webhook-signature": _, ...unsigned } = signed(key);
    expect(await rejection(verifyWebhook(unsigned, body, key, { now: NOW }))).toBe("missing_headers");
    expect(
      await rejection(
        verifyWebhook({ ...signed(key), "webhook-timestamp": "soon" }, body, key, { now: NOW }),
      ),
    ).toBe("timestamp_invalid");
    expect(await rejection(verifyWebhook(signed(key), body, "whsec_", { now: NOW }))).toBe("invalid_secret");
    const text = "not json";
    expect(await rejection(verifyWebhook(signed(key, NOW, "msg_1", text), text, key, { now: NOW }))).toBe(
      "invalid_body",
    );
  });
});
