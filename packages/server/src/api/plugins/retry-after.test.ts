import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { ApiError } from "../errors.ts";
import { installErrorHandling } from "./errors.ts";

async function app() {
  const app = Fastify({ logger: false });
  installErrorHandling(app);
  app.get("/v1/chain", async () => {
    throw new ApiError("chain_unavailable", { detail: "the chain head could not be read" });
  });
  app.get("/v1/fee", async () => {
    throw new ApiError("claim_fee_unavailable", { reason: "no_policy" });
  });
  app.get("/v1/gone", async () => {
    throw new ApiError("name_not_found", { name: "bob.acme" });
  });
  await app.ready();
  return app;
}

describe("Retry-After on the 503s of an unavailable dependency", () => {
  it("tells a client when to ask the chain again, and says nothing where waiting would not help", async () => {
    const a = await app();
    const chain = await a.inject({ url: "/v1/chain" });
    expect(chain.statusCode).toBe(503);
    expect(chain.json()).toEqual({ error: "chain_unavailable", detail: "the chain head could not be read" });
    expect(chain.headers["retry-after"]).toBe("5");
    // No fee policy is the allocator's state, not an outage.
    const fee = await a.inject({ url: "/v1/fee" });
    expect(fee.statusCode).toBe(503);
    expect(fee.headers["retry-after"]).toBeUndefined();
    const gone = await a.inject({ url: "/v1/gone" });
    expect(gone.statusCode).toBe(404);
    expect(gone.headers["retry-after"]).toBeUndefined();
    await a.close();
  });
});
