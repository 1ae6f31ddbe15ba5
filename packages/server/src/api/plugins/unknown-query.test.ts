import Fastify from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { installErrorHandling } from "./errors.ts";
import { refuseUnknownQuery } from "./unknown-query.ts";

async function app() {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  refuseUnknownQuery(app);
  app.get("/v1/plain", async () => ({ ok: true }));
  app.get(
    "/v1/filtered",
    { schema: { querystring: z.object({ limit: z.string().optional() }) } },
    async (r) => ({
      limit: r.query.limit ?? null,
    }),
  );
  app.get("/health", async () => ({ ok: true }));
  app.post("/v1/post", async () => ({ ok: true }));
  await app.ready();
  return app;
}

describe("refuseUnknownQuery", () => {
  it("refuses any query parameter on a /v1 read that declares none", async () => {
    const a = await app();
    expect((await a.inject({ url: "/v1/plain" })).json()).toEqual({ ok: true });
    const refused = await a.inject({ url: "/v1/plain?limt=5" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      error: "invalid_request",
      detail: 'querystring: Unrecognized key: "limt"',
    });
    // HEAD, which Fastify adds for each GET, follows the same rule.
    expect((await a.inject({ method: "HEAD", url: "/v1/plain?limt=5" })).statusCode).toBe(400);
  });

  it("leaves routes with their own schema, non-GET routes and routes outside /v1 alone", async () => {
    const a = await app();
    expect((await a.inject({ url: "/v1/filtered?limit=3" })).json()).toEqual({ limit: "3" });
    expect((await a.inject({ url: "/health?probe=1" })).statusCode).toBe(200);
    expect((await a.inject({ method: "POST", url: "/v1/post?x=1" })).statusCode).toBe(200);
  });
});
