// GET /v1/status (docs/api.md "GET /v1/status"). Reporting a failing database or RPC is this route's job, so their
// failures become component states, never a 500.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { BillingComponent, billingComponent } from "../../../billing/status.ts";
import { type IndexerSnapshot, isFresh } from "../../../db/coverage.ts";
import { EscrowComponent, escrowComponent } from "../../../escrow/status.ts";
import { DelivererComponent, delivererComponent } from "../../../webhooks/status.ts";
import { noStore } from "../../cache.ts";
import { type LiveHead, observedHeadLedger, observeLiveHead, readSnapshotOrNull } from "../../chain-head.ts";
import type { RouteDeps } from "../../route-deps.ts";
import { routeRules } from "../../route-rules.ts";
import { READ_REPLICA_DOWN, ReadReplicaComponent, readReplicaComponent } from "./read-replica.ts";

/** The spec names this component only as "the service RPC" and says it is reported under that name. */
export const RPC_COMPONENT = "the service RPC" as const;

/** About 50 s of 5 s ledgers: more than one indexer pass needs, far less than the staleness limit. */
export const MAX_CAUGHT_UP_LAG = 10;
/**
 * A few ledger closes: an indexer whose own view of the head is older has a lag that means nothing. Coverage
 * keeps its own 120 s rule (docs/api.md "GET /v1/coverage"); the component reports trouble much sooner.
 */
export const HEAD_STALE_AFTER_SECONDS = 30;
/** Several passes of the indexer's 1 s poll: one failed RPC read is noise, failing reads for this long are not. */
export const RPC_FAILING_AFTER_SECONDS = 5;

const Ledger = z.number().int().nonnegative();
const UpDown = z.enum(["operational", "down"]);

const DatabaseComponent = z.object({ name: z.literal("Database"), state: UpDown });
const RpcComponent = z.object({ name: z.literal(RPC_COMPONENT), state: UpDown, ledger: Ledger.optional() });
const IndexerComponent = z.object({
  name: z.literal("Indexer"),
  state: z.enum(["operational", "lagging", "degraded", "down", "unknown"]),
  ledger: Ledger.nullable(),
  lag: Ledger.nullable(),
  processedAt: z.iso.datetime().nullable(),
  /** Null only when the database could not be read: an unknown count is not zero. */
  deadLetters: z.number().int().nonnegative().nullable(),
  /** Only while the writer refuses the chain it is pointed at: why, in words (docs/operations.md). */
  reason: z.string().optional(),
});

const RateLimitsComponent = z.object({
  name: z.literal("Rate limits"),
  state: z.enum(["operational", "degraded"]),
  store: z.enum(["redis", "process"]),
});

const StatusResponse = z.object({
  ledger: Ledger.nullable(),
  components: z.array(
    z.discriminatedUnion("name", [
      DatabaseComponent,
      RpcComponent,
      IndexerComponent,
      ReadReplicaComponent,
      BillingComponent,
      EscrowComponent,
      DelivererComponent,
      RateLimitsComponent,
    ]),
  ),
});

type IndexerState = z.infer<typeof IndexerComponent>;

export const statusRoutes: FastifyPluginAsyncZod<
  Pick<RouteDeps, "db" | "chain" | "now" | "config" | "rateLimits">
> = async (app, { db, chain, now, config, rateLimits }) => {
  const statusRoute = {
    schema: {
      summary: "Service status: each component's state and the observed ledger",
      response: { 200: StatusResponse },
    },
    config: routeRules("global", []),
  };
  app.get("/v1/status", statusRoute, async (request, reply) => {
    noStore(reply);
    // Every part is bounded, so a frozen database makes the answer say so within ~2 s instead of hanging it.
    const at = now();
    const [healthy, live, snapshot, replica, billing, escrow, deliverer] = await Promise.all([
      within(db.healthy(), false),
      observeLiveHead(chain, now, request.log),
      within(readSnapshotOrNull(db.replica, request.log), null),
      db.replicaLag === undefined
        ? Promise.resolve(null)
        : within(
            db.replicaLag().then((r) => readReplicaComponent(r, config.database.readReplicaMaxLagSeconds)),
            READ_REPLICA_DOWN,
          ),
      config.billing.enabled
        ? within(billingComponent(db.replica, at), UNKNOWN_BILLING)
        : Promise.resolve(null),
      config.market.enabled ? within(escrowComponent(db.replica, at), UNKNOWN_ESCROW) : Promise.resolve(null),
      // Unreadable: whether any endpoint exists is unknown too, and the Database component already says why.
      within(delivererComponent(db.replica, at), null),
    ]);
    const status: z.infer<typeof StatusResponse> = {
      ledger: observedHeadLedger(live, snapshot),
      components: [
        { name: "Database", state: healthy ? "operational" : "down" },
        live === null
          ? { name: RPC_COMPONENT, state: "down" }
          : { name: RPC_COMPONENT, state: "operational", ledger: live.ledger },
        indexerComponent(snapshot, live, now()),
      ],
    };
    // docs/api.md "GET /v1/status" order: Read replica (only with DATABASE_READ_URL), Billing watcher, then Escrow
    // watcher, each only when enabled.
    if (replica !== null) status.components.push(replica);
    if (billing !== null) status.components.push(billing);
    if (escrow !== null) status.components.push(escrow);
    // Only while any webhook endpoint is registered.
    if (deliverer !== null) status.components.push(deliverer);
    // Only with REDIS_URL: without it every process counts alone by design, nothing to report.
    if (rateLimits !== undefined) status.components.push(rateLimits.component());
    return status;
  });
};

/** The longest any one part of /v1/status may take before it is reported as unknown or down. */
export const STATUS_PART_TIMEOUT_MS = 2000;

const UNKNOWN_BILLING = {
  name: "Billing watcher",
  state: "unknown",
  cursorAgeSeconds: null,
  quarantined: null,
} as const;
const UNKNOWN_ESCROW = {
  name: "Escrow watcher",
  state: "unknown",
  cursorAgeSeconds: null,
  parkedPayouts: null,
} as const;

/** `work`'s value, or `fallback` if it fails or takes longer than STATUS_PART_TIMEOUT_MS. */
async function within<T, F>(work: Promise<T>, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), STATUS_PART_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work.catch(() => fallback), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Rule 2: operational only while fresh and keeping pace. A stopped indexer is down (its progress goes stale);
 * one whose own RPC reads keep failing is degraded; one that trails the head, or whose own view of the head is
 * older than a few ledger closes, is lagging; one that keeps pace while events await an operator, or with a
 * coverage gap, is degraded. A writer that refuses the chain (another network, a reset) is down, saying why.
 */
export function indexerComponent(
  snapshot: IndexerSnapshot | null,
  live: LiveHead | null,
  now: Date,
): IndexerState {
  const base = { name: "Indexer" as const };
  if (snapshot === null) {
    return { ...base, state: "unknown", ledger: null, lag: null, processedAt: null, deadLetters: null };
  }
  const processed = snapshot.processedLedger;
  const head = observedHeadLedger(live, snapshot);
  const lag = processed === null || head === null ? null : Math.max(0, head - processed);
  const fields = {
    ledger: processed,
    lag,
    processedAt: snapshot.processedAt?.toISOString() ?? null,
    deadLetters: snapshot.deadLetters,
  };
  const refusal = snapshot.chainRefusal ?? null;
  if (refusal !== null) return { ...base, state: "down", ...fields, reason: refusal };
  const state = ((): IndexerState["state"] => {
    if (processed === null || snapshot.processedAt === null) return "unknown";
    if (!isFresh(snapshot.processedAt, now)) return "down";
    const failingSince = snapshot.rpcFailingSince ?? null;
    if (failingSince !== null && !isFresh(failingSince, now, RPC_FAILING_AFTER_SECONDS)) return "degraded";
    if (
      lag === null ||
      lag > MAX_CAUGHT_UP_LAG ||
      !isFresh(snapshot.headObservedAt, now, HEAD_STALE_AFTER_SECONDS)
    )
      return "lagging";
    // Events await an operator, or a range of the chain is missing from the mirror (docs/operations.md
    // "Retention gaps"): keeping pace, yet not whole.
    return snapshot.deadLetters > 0 || snapshot.gaps.length > 0 ? "degraded" : "operational";
  })();
  return { ...base, state, ...fields };
}
