// The service's one caching policy (docs/api.md, Conventions, "Caching"): every answer carries
// `Cache-Control: no-store`, errors included. Everything the API says mirrors a chain that moves every ledger
// (a resolved address, a price, a listing, an intent, a claim fee, a session), and wallets pay from it, so no
// answer may be kept by a browser or a shared cache and replayed after the chain has moved; a cached 400, 409 or
// 503 would outlive its cause the same way. The policy is installed once for the whole app (`installNoStore`),
// so a new route cannot forget it; the resolve fast path, which answers without Fastify, sends the same header
// (`NO_STORE_HEADERS`).
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";

/** The header pair of the policy, for answers written without Fastify's reply (the resolve fast path). */
export const NO_STORE_HEADERS: Readonly<Record<string, string>> = { "cache-control": "no-store" };

/** For answers that must be re-fetched every time. */
export function noStore(reply: FastifyReply): FastifyReply {
  return reply.header("cache-control", "no-store");
}

/**
 * The policy for every route of `app`, set in the first onRequest hook: before the rate limit, validation, the
 * market switch or the console guard can answer, so their 4xx/5xx carry it too. Call it before registering
 * anything else.
 */
export function installNoStore(app: FastifyInstance): void {
  app.addHook("onRequest", noStoreHook);
}

/**
 * Route option: `Cache-Control: no-store` on every answer of the route, errors included. Inside an app built by
 * `buildApp` the app-wide hook already does this; the option also holds for a route plugin registered alone.
 */
export const NO_STORE = { onRequest: noStoreHook };

/** The same for every route of a scope or app (`scope.addHook("onRequest", noStoreHook)`). */
export function noStoreHook(
  _request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  noStore(reply);
  done();
}
