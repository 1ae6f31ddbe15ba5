import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";

/** For answers that must be re-fetched every time. */
export function noStore(reply: FastifyReply): FastifyReply {
  return reply.header("cache-control", "no-store");
}

/**
 * Route option of the reads docs/api.md "Conventions" names (subnames, network addresses, the claim fee): every answer carries
 * `Cache-Control: no-store`, errors included — set before validation, so a 400 or a 503 is not kept by a cache
 * and replayed after the cause is gone.
 */
export const NO_STORE = { onRequest: noStoreHook };

/** The same for every route of a scope (`scope.addHook("onRequest", noStoreHook)`): sessions and the console. */
export function noStoreHook(
  _request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  noStore(reply);
  done();
}
