import type { FastifyReply } from "fastify";

/** For answers that must be re-fetched every time (spec §1.5: subnames, network addresses, claim-fee quote). */
export function noStore(reply: FastifyReply): FastifyReply {
  return reply.header("cache-control", "no-store");
}
