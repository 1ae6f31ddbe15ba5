// The chain head as the API reports it (docs/api.md "Conventions", `ledger`): observed live from the service RPC when it
// answers, else the indexer's last observation, and never below what the mirror has seen. Status, stats,
// ledger/head and allocations share observedHeadLedger so they never disagree on which head they mean.
import type { FastifyBaseLogger } from "fastify";
import { type IndexerSnapshot, readIndexerSnapshot } from "../db/coverage.ts";
import type { Db } from "../db/types.ts";

/** What the API needs of the service RPC; production wraps `RpcClient.getLatestLedger`. */
export interface ChainHeadSource {
  head(): Promise<{ sequence: number; closeTime: string }>;
}

export interface LiveHead {
  readonly ledger: number;
  /** Close time of that ledger, ISO 8601; null when the RPC's value is unreadable. */
  readonly closedAt: string | null;
  readonly observedAt: Date;
}

/**
 * The RPC client retries with backoff for seconds before giving up; a status page must answer well before that,
 * reporting the RPC down rather than hanging with it.
 */
export const HEAD_TIMEOUT_MS = 3000;

/** The live head, or null when there is no RPC, it fails, or it does not answer in time. Never throws. */
export async function observeLiveHead(
  chain: ChainHeadSource | undefined,
  now: () => Date,
  log: FastifyBaseLogger,
  timeoutMs = HEAD_TIMEOUT_MS,
): Promise<LiveHead | null> {
  if (chain === undefined) return null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  try {
    const head = await Promise.race([chain.head(), timeout]);
    if (head === null) {
      log.warn({ timeoutMs }, "the chain head did not arrive in time");
      return null;
    }
    if (!Number.isSafeInteger(head.sequence) || head.sequence < 0) {
      log.warn({ sequence: head.sequence }, "the RPC reported an unusable ledger sequence");
      return null;
    }
    return { ledger: head.sequence, closedAt: closeTimeIso(head.closeTime), observedAt: now() };
  } catch (err) {
    log.warn({ err }, "the chain head could not be observed");
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** Stellar RPC gives `closeTime` as a string of Unix seconds; an RFC 3339 string is accepted as well. */
export function closeTimeIso(closeTime: string): string | null {
  const ms = /^\d{1,12}$/.test(closeTime) ? Number(closeTime) * 1000 : Date.parse(closeTime);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/**
 * The highest ledger anyone here has seen: the live head, or the indexer's observation or progress when those
 * are ahead (a lagging RPC replica must not put the service's ledger below what the mirror already holds).
 */
export function observedHeadLedger(live: LiveHead | null, snapshot: IndexerSnapshot | null): number | null {
  const seen = [live?.ledger, snapshot?.headLedger, snapshot?.processedLedger].filter(
    (l): l is number => typeof l === "number",
  );
  return seen.length === 0 ? null : Math.max(...seen);
}

/** The indexer's snapshot, or null when the database cannot be read: for routes whose job is to report that. */
export async function readSnapshotOrNull(
  reader: Db,
  log: FastifyBaseLogger,
): Promise<IndexerSnapshot | null> {
  try {
    return await readIndexerSnapshot(reader);
  } catch (err) {
    log.warn({ err }, "the indexer state could not be read");
    return null;
  }
}

/**
 * The indexer's snapshot as readSnapshotOrNull gives it, or null when the database takes longer than `timeoutMs`:
 * for a route that can answer from the live head alone, a frozen database must not hold the answer.
 */
export async function readSnapshotWithin(
  reader: Db,
  log: FastifyBaseLogger,
  timeoutMs = HEAD_TIMEOUT_MS,
): Promise<IndexerSnapshot | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  try {
    return await Promise.race([readSnapshotOrNull(reader, log), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Shares one RPC call among concurrent requests and reuses its answer for `ttlMs`: status and stats are polled by
 * many clients, and each poll must not become a call to the RPC. Failures are not reused.
 */
export function coalescedHead(
  source: ChainHeadSource,
  ttlMs = 1000,
  clock: () => number = Date.now,
): ChainHeadSource {
  let inFlight: Promise<{ sequence: number; closeTime: string }> | null = null;
  let last: { at: number; head: { sequence: number; closeTime: string } } | null = null;
  return {
    head() {
      if (last !== null && clock() - last.at < ttlMs) return Promise.resolve(last.head);
      if (inFlight === null) {
        inFlight = source.head().then(
          (head) => {
            last = { at: clock(), head };
            inFlight = null;
            return head;
          },
          (err: unknown) => {
            inFlight = null;
            throw err;
          },
        );
      }
      return inFlight;
    },
  };
}
