// GET /v1/allocations (docs/api.md "GET /v1/allocations"): the claim queue from the allocator's mirror. `ledger`
// is the observed chain head, the same as /v1/status reports (chain-head.ts), not the mirror's processed ledger;
// the countdown fields are computed at response time by the same clock that judges name expiry (the later of wall
// clock and chain time).
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { readIndexerSnapshot } from "../../../db/coverage.ts";
import { noStore } from "../../cache.ts";
import { observedHeadLedger, observeLiveHead } from "../../chain-head.ts";
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
  announcedLedger: z.number().int().min(1),
  deadline: z.iso.datetime(),
  remainingSeconds: z.number().int().min(0),
  elapsed: z.boolean(),
  awardedAt: z.iso.datetime().nullable(),
  objections: z.array(z.object({ objector: z.string(), basis: z.array(z.string()), bondXlm: z.string() })),
});

const AllocationsResponse = z.object({
  ledger: z.number().int().min(0).nullable(),
  pending: z.array(Entry),
  objected: z.array(Entry),
  awarded: z.array(Entry),
});

export const allocationRoutes: FastifyPluginAsyncZod<
  Pick<RouteDeps, "db" | "resolution" | "chain" | "now">
> = async (app, { db, resolution, chain, now }) => {
  app.get(
    "/v1/allocations",
    {
      schema: {
        summary: "The claim queue: pending, objected and awarded claims with objections",
        response: { 200: AllocationsResponse },
      },
      config: routeRules("global", ["invalid_request"]),
    },
    async (request, reply) => {
      // The countdown changes every second: a cached answer would be wrong by its age.
      noStore(reply);
      const mirror = db.replica;
      const [live, snapshot, queue] = await Promise.all([
        observeLiveHead(chain, now, request.log),
        readIndexerSnapshot(mirror),
        readAllocationQueue(mirror, resolution.clock.nowSeconds()),
      ]);
      return { ledger: observedHeadLedger(live, snapshot), ...queue };
    },
  );
};
