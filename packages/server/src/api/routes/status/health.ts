import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { noStore } from "../../cache.ts";
import type { RouteDeps } from "../../route-deps.ts";
import { routeRules } from "../../route-rules.ts";

const HealthResponse = z.object({ ok: z.literal(true), service: z.string() });

/** Liveness only (docs/api.md "GET /v1/status"): answers while the process serves HTTP, without touching the database or chain. */
export const healthRoutes: FastifyPluginAsyncZod<Pick<RouteDeps, "config">> = async (app, { config }) => {
  const { serviceName } = config;
  const healthRoute = {
    schema: { summary: "Liveness: the process answers", response: { 200: HealthResponse } },
    config: routeRules("global", []),
  };
  app.get("/health", healthRoute, async (_request, reply) => {
    noStore(reply);
    return { ok: true as const, service: serviceName };
  });
};
