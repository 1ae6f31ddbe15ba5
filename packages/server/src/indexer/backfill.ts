// `namereg backfill`: fills the recorded retention gaps from an RPC that still holds those ledgers. For each gap
// (or the part of it inside --from/--to) it checks that the RPC's retention starts at or before the gap, reads the
// gap's contracts' events over the whole range by following getEvents cursors past its end, and applies them as
// one page through the indexer's own path (apply-batch.ts: archive keyed by event id, projections, dead letters,
// discovered contracts), serialised with a running writer through the fence. The gap is removed (or cut down to
// what lies outside the requested range) in that page's transaction, so coverage turns complete only when no gap
// is left, and never before the events that fill it are in.
//
// Contracts the filled events discover (a registrar allocated inside the gap) are filled over the rest of the gap
// too, and their new streams start after it; until then the rest is recorded as a gap of their own. The events are applied on top of the rows the indexer built after the
// gap: where a later event already changed the same row, the projection follows the order of application, not the
// chain's (docs/operations.md).
import { asc } from "drizzle-orm";
import type { ContractReader } from "../chain/contract-reader.ts";
import { LedgerRangeError, ledgerOfCursor, type RawEvent, type RpcClient } from "../chain/rpc-client.ts";
import { gaps } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { applyPage } from "./apply-batch.ts";
import { loadIndexerCache } from "./cache.ts";
import { decodeRawEvent } from "./decode.ts";
import { filtersFor, MAX_CONTRACTS_PER_STREAM } from "./fetch-batch.ts";
import { replayDeadLetters } from "./replay.ts";
import { rereadNamespaces } from "./rereads.ts";

export interface BackfillOptions {
  db: Db;
  /** The RPC with the deeper retention. */
  rpc: RpcClient;
  /** Simulated reads on that RPC (the namespace re-read after an allocation). */
  reader: ContractReader;
  registryId: string;
  /** Only this part of each gap (inclusive); default the whole gap. */
  from?: number;
  to?: number;
  pageLimit?: number;
  log?: (line: string) => void;
}

export interface GapReport {
  contractIds: string[];
  fromLedger: number;
  toLedger: number;
  filled: boolean;
  events: number;
  detail: string;
}

export interface BackfillResult {
  reports: GapReport[];
  /** Gaps still recorded afterwards. */
  remaining: number;
}

interface Job {
  contractIds: string[];
  from: number;
  to: number;
  /** The gap rows this job fills (for a contract discovered inside a gap, the one its page opened). */
  gapIds: number[];
}

export async function backfill(o: BackfillOptions): Promise<BackfillResult> {
  const reports: GapReport[] = [];
  const refused = new Set<string>();
  // A filled gap can discover contracts whose own streams then record gaps (when an indexer runs meanwhile):
  // a few rounds take those too; a round that fills nothing ends the run.
  for (let round = 0; round < 10; round++) {
    const jobs = (await jobsFromGaps(o)).filter((j) => !refused.has(jobKey(j)));
    if (jobs.length === 0) break;
    let filledAny = false;
    for (const job of jobs) {
      const report = await fillJob(o, job);
      reports.push(report);
      if (report.filled) filledAny = true;
      else refused.add(jobKey(job));
      o.log?.(
        `${report.filled ? "filled" : "refused"} ledgers ${report.fromLedger}-${report.toLedger} of ${report.contractIds.length} contract(s): ${report.detail}`,
      );
    }
    if (!filledAny) break;
  }
  // Events after a gap that changed state the gap held (a lock of a namespace allocated inside it) were
  // dead-lettered; with the gap filled they project now, in chain order.
  if (reports.some((r) => r.filled)) {
    const cache = await loadIndexerCache(o.db);
    const resolved = await replayDeadLetters({
      db: o.db,
      cache,
      reader: o.reader,
      rpc: o.rpc,
      registryId: o.registryId,
      exclusive: true,
    });
    if (resolved > 0) o.log?.(`${resolved} dead letter(s) projected now that their gap is filled`);
  }
  const remaining = (await o.db.select({ id: gaps.id }).from(gaps)).length;
  return { reports, remaining };
}

function jobKey(j: Job): string {
  return `${j.from}-${j.to}:${j.contractIds.join(",")}`;
}

/** The recorded gaps, cut to the requested range and grouped by identical range (≤ 25 contracts a request). */
async function jobsFromGaps(o: BackfillOptions): Promise<Job[]> {
  const rows = await o.db.select().from(gaps).orderBy(asc(gaps.fromLedger), asc(gaps.contractId));
  const byRange = new Map<string, Job>();
  const jobs: Job[] = [];
  for (const g of rows) {
    const from = Math.max(g.fromLedger, o.from ?? g.fromLedger);
    const to = Math.min(g.toLedger, o.to ?? g.toLedger);
    if (from > to) continue;
    const key = `${from}-${to}`;
    let job = byRange.get(key);
    if (job === undefined || job.contractIds.length >= MAX_CONTRACTS_PER_STREAM) {
      job = { contractIds: [], from, to, gapIds: [] };
      byRange.set(key, job);
      jobs.push(job);
    }
    job.contractIds.push(g.contractId);
    job.gapIds.push(g.id);
  }
  return jobs;
}

async function fillJob(o: BackfillOptions, job: Job): Promise<GapReport> {
  const report = (filled: boolean, events: number, detail: string): GapReport => ({
    contractIds: job.contractIds,
    fromLedger: job.from,
    toLedger: job.to,
    filled,
    events,
    detail,
  });
  const health = await o.rpc.getHealth();
  if (health.oldestLedger > job.from) {
    return report(
      false,
      0,
      `the RPC keeps ledgers from ${health.oldestLedger} only; the gap starts at ${job.from}`,
    );
  }
  if (health.latestLedger < job.to) {
    return report(
      false,
      0,
      `the RPC's latest ledger ${health.latestLedger} is before the gap's end ${job.to}`,
    );
  }
  const cache = await loadIndexerCache(o.db);
  let events = 0;
  const queue: Job[] = [job];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    let raw: RawEvent[];
    try {
      raw = await readRange(o, next.contractIds, next.from, next.to);
    } catch (err) {
      if (err instanceof LedgerRangeError) {
        return report(false, events, `the RPC refused ledger ${next.from}: ${err.message}`);
      }
      throw err;
    }
    const decoded = raw.map(decodeRawEvent);
    const rereads = await rereadNamespaces(
      { reader: o.reader, rpc: o.rpc, registryId: o.registryId, cache },
      decoded,
    );
    const result = await applyPage(o.db, cache, {
      events: decoded,
      rereads,
      coverage: { kind: "fill", from: next.from, to: next.to, gapIds: next.gapIds },
      exclusive: true,
    });
    events += result.archived;
    // A contract discovered inside the range is filled over the rest of it too: the page opened a gap for it.
    for (let i = 0; i < result.openedGaps.length; i += MAX_CONTRACTS_PER_STREAM) {
      const part = result.openedGaps.slice(i, i + MAX_CONTRACTS_PER_STREAM);
      const from = Math.min(...part.map((g) => g.fromLedger));
      queue.push({
        contractIds: part.map((g) => g.contractId),
        from,
        to: next.to,
        gapIds: part.map((g) => g.id),
      });
    }
  }
  return report(true, events, `${events} event(s) archived`);
}

/**
 * Every event of `contractIds` in [from, to]: the first page starts at `from` (the RPC refuses a start outside
 * its retention), then cursors are followed until the cursor stands past `to`, so no ledger of the range is
 * skipped. A page that neither returns events nor moves the cursor is an error, not the end.
 */
async function readRange(
  o: BackfillOptions,
  contractIds: string[],
  from: number,
  to: number,
): Promise<RawEvent[]> {
  const filters = filtersFor(contractIds);
  const limit = o.pageLimit ?? 10_000;
  const out: RawEvent[] = [];
  let page = await o.rpc.getEvents({ startLedger: from, filters, limit });
  for (;;) {
    for (const e of page.events) if (ledgerOf(e) <= to) out.push(e);
    const last = page.events.at(-1);
    const past = (last !== undefined && ledgerOf(last) > to) || ledgerOfCursor(page.cursor) > to;
    if (past) return out;
    if (page.events.length === 0 && page.latestLedger >= to) {
      // The RPC scanned to its head without more events; its head is past the range.
      return out;
    }
    if (page.events.length === 0 && page.latestLedger < to) {
      throw new Error(`the RPC's head ${page.latestLedger} is before the end of the range ${to}`);
    }
    const cursor = page.cursor;
    page = await o.rpc.getEvents({ cursor, filters, limit });
    if (page.events.length === 0 && page.cursor === cursor) {
      throw new Error(`getEvents made no progress at cursor ${cursor}`);
    }
  }
}

function ledgerOf(e: RawEvent): number {
  return e.ledger ?? ledgerOfCursor(e.id);
}
