// GET /v1/events and GET /v1/coverage (docs/api.md "GET /v1/events", docs/api.md "GET /v1/coverage"): the raw event archive, paged in chain order,
// and the indexer's own report of how much of the chain it holds.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { coverageOf, readIndexerSnapshot } from "../../../db/coverage.ts";
import { noStore } from "../../cache.ts";
import { ApiError } from "../../errors.ts";
import type { RouteDeps } from "../../route-deps.ts";
import { routeRules } from "../../route-rules.ts";
import {
  decodeCursor,
  type EventFilters,
  EventsQuery,
  encodeCursor,
  filterFingerprint,
} from "./events-query.ts";
import { eventsPage } from "./queries.ts";

const Ledger = z.number().int().min(0);
const Timestamp = z.iso.datetime();

export const CoverageSchema = z.object({
  source: z.literal("indexed"),
  complete: z.boolean(),
  processedLedger: Ledger.nullable(),
  headLedger: Ledger.nullable(),
  processedAt: Timestamp.nullable(),
  headObservedAt: Timestamp.nullable(),
  gaps: z.array(
    z.object({ contractId: z.string(), fromLedger: Ledger, toLedger: Ledger, reason: z.string() }),
  ),
});

const ArchivedEvent = z.object({
  id: z.string(),
  contractId: z.string(),
  txHash: z.string(),
  ledger: Ledger,
  /** Chain time of the ledger; null when unknown, never the ingestion time (docs/contracts.md "Which contracts are followed"). */
  at: Timestamp.nullable(),
  ingestedAt: Timestamp,
  type: z.string().nullable(),
  topics: z.array(z.string()),
  data: z.string(),
  inSuccessfulContractCall: z.boolean(),
  transactionIndex: z.number().int().min(0),
  operationIndex: z.number().int().min(0),
});

const EventsResponse = z.object({
  events: z.array(ArchivedEvent),
  nextCursor: z.string().nullable(),
  hasMore: z.boolean(),
  truncated: z.boolean(),
  coverage: CoverageSchema,
});

export const archiveRoutes: FastifyPluginAsyncZod<Pick<RouteDeps, "db" | "now">> = async (
  app,
  { db, now },
) => {
  const { replica } = db;

  const coverageRoute = {
    schema: {
      summary: "How much of the chain the mirror has read, and any gaps",
      response: { 200: CoverageSchema },
    },
    config: routeRules("global", ["invalid_request"]),
  };
  app.get("/v1/coverage", coverageRoute, async (_request, reply) => {
    noStore(reply);
    return coverageOf(await readIndexerSnapshot(replica), now());
  });

  app.get(
    "/v1/events",
    {
      schema: {
        summary: "The archive of indexed contract events, paged",
        querystring: EventsQuery,
        response: { 200: EventsResponse },
      },
      config: routeRules("global", ["invalid_request", "invalid_node"]),
    },
    async (request, reply) => {
      noStore(reply);
      const { limit, cursor, ...filters } = request.query;
      const after = cursor === undefined ? undefined : afterOf(cursor, filters);

      // Coverage first: the indexer commits events with its progress, so every event up to the processed ledger
      // it reports is visible to the page read after it. Read the other way round, coverage could claim a ledger
      // whose events the page missed.
      const coverage = coverageOf(await readIndexerSnapshot(replica), now());

      const rows = await eventsPage(replica, filters, after, limit + 1);

      const truncated = rows.length > limit;
      const page = truncated ? rows.slice(0, limit) : rows;
      const last = page.at(-1);
      // hasMore and truncated coincide while a page ends only at `limit`; a scan budget would end pages early.
      const hasMore = truncated;
      return {
        events: page.map((row) => ({
          id: row.id,
          contractId: row.contractId,
          txHash: row.txHash,
          ledger: row.ledger,
          at: row.at?.toISOString() ?? null,
          ingestedAt: row.ingestedAt.toISOString(),
          type: row.type,
          topics: row.topics,
          data: row.value,
          inSuccessfulContractCall: row.inSuccessfulContractCall,
          transactionIndex: row.transactionIndex,
          operationIndex: row.operationIndex,
        })),
        nextCursor: hasMore && last !== undefined ? encodeCursor(last.id, filters) : null,
        hasMore,
        truncated,
        coverage,
      };
    },
  );
};

/** The id a cursor continues after; a cursor is valid only with the filters it was issued for (docs/api.md "GET /v1/events"). */
function afterOf(cursor: string, filters: EventFilters): string {
  const decoded = decodeCursor(cursor);
  if (decoded === null) {
    throw new ApiError("invalid_request", {
      detail: "cursor: is malformed; use a nextCursor from this endpoint unchanged",
    });
  }
  if (decoded.f !== filterFingerprint(filters)) {
    throw new ApiError("invalid_request", {
      detail:
        "cursor: belongs to other filters; repeat the contractId, subject, namespace and txHash it was issued with",
    });
  }
  return decoded.after;
}
