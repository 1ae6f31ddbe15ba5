// GET /v1/ledger/head and GET /v1/stats (docs/api.md "GET /v1/ledger/head", "GET /v1/stats"): the observed chain
// head, alone or with the mirror's totals. Both report the head as /v1/status does (docs/api.md "Conventions",
// `ledger`; chain-head.ts observedHeadLedger): the live RPC head, unless the indexer has seen a later one (a
// lagging RPC replica), else the indexer's last observation.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { readIndexerSnapshot } from "../../../db/coverage.ts";
import { noStore } from "../../cache.ts";
import { observedHeadLedger, observeLiveHead, readSnapshotWithin } from "../../chain-head.ts";
import { ApiError } from "../../errors.ts";
import type { RouteDeps } from "../../route-deps.ts";
import { routeRules } from "../../route-rules.ts";
import { mirrorCounts } from "./queries.ts";

const Ledger = z.number().int().nonnegative();
const Count = z.number().int().nonnegative();

const LedgerHeadResponse = z.object({
  ledger: Ledger,
  closedAt: z.iso.datetime().nullable(),
  observedAt: z.iso.datetime(),
  source: z.enum(["rpc", "indexer"]),
});

const StatsResponse = z.object({
  namespaces: Count,
  names: Count,
  subnames: Count,
  ledger: Ledger.nullable(),
});

export const ledgerRoutes: FastifyPluginAsyncZod<Pick<RouteDeps, "db" | "chain" | "now">> = async (
  app,
  { db, chain, now },
) => {
  app.get(
    "/v1/ledger/head",
    {
      schema: {
        summary: "The chain's latest ledger as the service observes it",
        response: { 200: LedgerHeadResponse },
      },
      config: routeRules("global", ["chain_unavailable"]),
    },
    async (request, reply) => {
      noStore(reply);
      const [live, snapshot] = await Promise.all([
        observeLiveHead(chain, now, request.log),
        readSnapshotWithin(db.replica, request.log),
      ]);
      const ledger = observedHeadLedger(live, snapshot);
      if (live !== null && live.ledger === ledger) {
        return {
          ledger: live.ledger,
          closedAt: live.closedAt,
          observedAt: live.observedAt.toISOString(),
          source: "rpc" as const,
        };
      }
      // The indexer records only the head's sequence and when it saw it, not the ledger's close time.
      const observedAt =
        ledger === null
          ? null
          : ledger === snapshot?.headLedger
            ? snapshot.headObservedAt
            : (snapshot?.processedAt ?? null);
      if (ledger === null || observedAt === null) {
        throw new ApiError("chain_unavailable", {
          detail:
            "The chain head could not be observed: the RPC did not answer and no indexer observation is available.",
        });
      }
      return { ledger, closedAt: null, observedAt: observedAt.toISOString(), source: "indexer" as const };
    },
  );

  const statsRoute = {
    schema: {
      summary: "Counts of namespaces, names and subnames, with the observed ledger",
      response: { 200: StatsResponse },
    },
    config: routeRules("global", []),
  };
  app.get("/v1/stats", statsRoute, async (request, reply) => {
    noStore(reply);
    const { replica } = db;
    const [live, snapshot, counts] = await Promise.all([
      observeLiveHead(chain, now, request.log),
      readIndexerSnapshot(replica),
      mirrorCounts(replica),
    ]);
    // Counts that cannot be read are a 500; only the head degrades, and only to what the indexer saw.
    const ledger = observedHeadLedger(live, snapshot);
    return { ...counts, ledger };
  });
};
