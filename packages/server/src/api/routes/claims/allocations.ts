// GET /v1/allocations (docs/api.md "GET /v1/allocations"): the claim queue from the allocator's mirror. `ledger` is the ledger the mirror
// has processed (what the queue reflects); the countdown fields are computed at response time by the same clock
// that judges name expiry (the later of wall clock and chain time).
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { indexerState } from "../../../db/tables.ts";
import { noStore } from "../../cache.ts";
import type { RouteDeps } from "../../route-deps.ts";
import { routeRules } from "../../route-rules.ts";
import { readAllocationQueue } from "./allocation-queue.ts";

const Entry = z.object({
  id: z.string(),
  namespace: z.string(),
  claimant: z.string(),
  claimantAccount: z.string(),
  state: z.enum(["announced", "objected", "awarded"]),
  basis: z.array(z.string()),
  claimantResponse: z.string().nullable(),
  evidence: z.array(z.object({ label: z.string(), url: z.string() })),
  announcedLedger: z.number().int(),
  deadline: z.string(),
  remainingSeconds: z.number().int(),
  elapsed: z.boolean(),
  awardedAt: z.string().nullable(),
  objections: z.array(z.object({ objector: z.string(), basis: z.array(z.string()), bondXlm: z.string() })),
});

const AllocationsResponse = z.object({
  ledger: z.number().int().nullable(),
  pending: z.array(Entry),
  objected: z.array(Entry),
  awarded: z.array(Entry),
});

export const allocationRoutes: FastifyPluginAsyncZod<Pick<RouteDeps, "db" | "resolution">> = async (
  app,
  { db, resolution },
) => {
  app.get(
    "/v1/allocations",
    {
      schema: { response: { 200: AllocationsResponse } },
      config: routeRules("global", ["invalid_request"]),
    },
    async (_request, reply) => {
      // The countdown changes every second: a cached answer would be wrong by its age.
      noStore(reply);
      const mirror = db.replica;
      const [[state], queue] = await Promise.all([
        mirror.select({ ledger: indexerState.processedLedger }).from(indexerState),
        readAllocationQueue(mirror, resolution.clock.nowSeconds()),
      ]);
      return { ledger: state?.ledger ?? null, ...queue };
    },
  );
};
