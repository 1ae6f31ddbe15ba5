// Unknown query parameters are refused on every /v1 read (docs/api.md): routes with parameters declare a strict
// schema; this gives the ones that take none an empty strict schema, so `?limt=5` is a 400 there as everywhere
// else rather than silently ignored. Routes outside /v1 (federation for any SEP-2 client, the web page, the
// document, /metrics, /health) keep ignoring the query string.
import type { FastifyInstance, RouteOptions } from "fastify";
import { NoQuery } from "../query-params.ts";

/**
 * Whether a route reads its query string strictly: every /v1 read, with its own schema or NoQuery. Such a route can
 * answer 400 `invalid_request` for an unknown or repeated parameter, so the OpenAPI document lists that code for it.
 */
export function refusesUnknownQuery(methods: readonly string[], url: string): boolean {
  return methods.some((m) => m === "GET" || m === "HEAD") && url.startsWith("/v1/");
}

export function refuseUnknownQuery(app: FastifyInstance): void {
  app.addHook("onRoute", (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!refusesUnknownQuery(methods, route.url)) return;
    if (route.schema?.querystring !== undefined) return;
    route.schema = { ...route.schema, querystring: NoQuery };
  });
}
