// The fault suite: indexing and serving while the devnet's RPC misbehaves the way providers do. A bulk back-fill
// runs under a seeded mix (error share, latency, truncated pages, 429 with Retry-After, 503, resets, hangs, cut
// JSON) while /v1/status and /v1/coverage are polled; then a frozen head and an error burst, each lifted again;
// then shortened retention: ledgers with new names close while the indexer is stopped, the RPC's retention shrinks
// below them, the indexer comes back to a chain that no longer serves them, and `backfill` fills the gap once the
// retention is back. Asserted: no event of the chain is missing from the archive (against an uninterrupted run plus
// the names added), coverage is never `complete` over a gap or while stale and lists the retention gap, /v1/status
// is not `operational` for the RPC or the indexer while the head is frozen or the RPC fails, and every component is
// `operational` again (coverage complete after the backfill) within `recoverWithinSeconds` after.
// `bench/faults/run.ts` runs it at full size; suite.integration.test.ts runs a short seeded variant.
import { bulkHolder, type SyntheticEvent, startNamingDevnet } from "@namereg/devnet";
import { encodeEvent, nameNode } from "@namereg/protocol";
import { backfill, buildApp, ContractReader, RpcClient } from "@namereg/server";
import { createTestDatabase, indexerFor, testConfig } from "@namereg/server/testing";
import { referenceEventIds } from "../lib/reference-archive.ts";

export interface FaultSuiteOptions {
  seed: number;
  events: number;
  /** How soon after a fault is lifted every component must be operational again. */
  recoverWithinSeconds?: number;
  log?: (line: string) => void;
}

export interface FaultSuiteResult {
  seed: number;
  events: number;
  archived: number;
  lost: number;
  statusPolls: number;
  /** Polls where coverage said complete over a gap or with stale progress, or status answered 5xx. */
  violations: string[];
  backfillSeconds: number;
  frozenHead: { notOperationalAfterSeconds: number | null; recoveredAfterSeconds: number | null };
  errorBurst: { notOperationalAfterSeconds: number | null; recoveredAfterSeconds: number | null };
  retention: {
    /** Names added in ledgers the shortened retention hid from the restarted indexer. */
    appended: number;
    /** When /v1/coverage listed the gap, counted from the indexer's restart; null: never. */
    gapListedAfterSeconds: number | null;
    /** Gaps `backfill` filled once the retention was back, and those it left. */
    filled: number;
    remaining: number;
    /** When /v1/coverage was complete again and every component operational, after the backfill. */
    completeAfterSeconds: number | null;
  };
  ok: boolean;
}

interface StatusBody {
  state: string;
  components: { name: string; state: string }[];
}
interface CoverageBody {
  complete: boolean;
  gaps: unknown[];
  processedAt: string | null;
  headObservedAt: string | null;
}

const STALE_MS = 120_000;

export async function runFaultSuite(o: FaultSuiteOptions): Promise<FaultSuiteResult> {
  const log = o.log ?? (() => undefined);
  const recoverWithin = o.recoverWithinSeconds ?? 15;
  const devnet = await startNamingDevnet({
    scenario: "bulk",
    closeIntervalMs: 1000,
    bulk: { namespaces: 4, events: o.events, eventsPerLedger: 500, holders: 200 },
  });
  const cleanup: (() => Promise<unknown>)[] = [async () => devnet.stop()];
  const controller = new AbortController();
  try {
    const referenceIds = await referenceEventIds(devnet, cleanup);
    log(`uninterrupted run: ${referenceIds.length} events`);

    const database = await createTestDatabase("postgres");
    cleanup.push(() => database.close());
    // The indexer's client as `namereg index` builds it, with a timeout short enough for hangs to matter.
    const rpc = new RpcClient(devnet.rpcUrl, {
      retries: 4,
      backoffMs: 50,
      timeoutMs: 1000,
      maxRetryAfterMs: 2000,
    });
    const indexer = indexerFor(devnet, database.db, { rpc, pollMs: 200, concurrency: 2 });
    await indexer.init();
    const apiRpc = new RpcClient(devnet.rpcUrl, { retries: 0, timeoutMs: 2000 });
    const app = await buildApp({
      config: testConfig(),
      db: database,
      redis: null,
      chain: { head: () => apiRpc.getLatestLedger() },
    });
    cleanup.push(() => app.close());

    const violations: string[] = [];
    let polls = 0;
    const poll = async (): Promise<StatusBody | null> => {
      polls++;
      const [s, c] = await Promise.all([
        app.inject({ method: "GET", url: "/v1/status" }),
        app.inject({ method: "GET", url: "/v1/coverage" }),
      ]);
      if (s.statusCode >= 500) violations.push(`/v1/status answered ${s.statusCode}`);
      if (c.statusCode === 200) {
        const cov = c.json() as CoverageBody;
        const stale = (at: string | null) => at === null || Date.now() - Date.parse(at) > STALE_MS;
        if (cov.complete && cov.gaps.length > 0) violations.push("coverage complete over a gap");
        if (cov.complete && (stale(cov.processedAt) || stale(cov.headObservedAt)))
          violations.push("coverage complete while stale");
      } else if (c.statusCode >= 500) violations.push(`/v1/coverage answered ${c.statusCode}`);
      return s.statusCode === 200 ? (s.json() as StatusBody) : null;
    };
    const healthy = (s: StatusBody | null) => s?.components.every((c) => c.state === "operational") === true;
    const rpcOrIndexerDown = (s: StatusBody | null) =>
      s === null ||
      s.components.some(
        (c) => (c.name === "Indexer" || c.name === "the service RPC") && c.state !== "operational",
      );
    const waitFor = async (
      check: (s: StatusBody | null) => boolean | Promise<boolean>,
      ms: number,
    ): Promise<number | null> => {
      const start = performance.now();
      while (performance.now() - start < ms) {
        if (await check(await poll())) return (performance.now() - start) / 1000;
        await sleep(200);
      }
      return null;
    };

    // 1. The back-fill under the seeded mix.
    devnet.setFaults({
      seed: o.seed,
      errorRate: 0.05,
      latencyMs: 5,
      truncateEventsTo: 97,
      rateLimitedRate: 0.03,
      retryAfterSeconds: 1,
      unavailableRate: 0.03,
      resetRate: 0.03,
      hangRate: 0.01,
      hangMs: 1500,
      malformedRate: 0.03,
    });
    let running = indexer.run(controller.signal);
    const started = performance.now();
    const count = async () =>
      Number((await database.query<{ n: string }>("select count(*) as n from events"))[0]?.n ?? 0);
    // However long the back-fill takes under the mix on this machine; it only has to keep moving (two minutes
    // without a new event archived is stuck: the fault mix's longest pause is a 1.5 s hang).
    let archivedSoFar = -1;
    let movedAt = performance.now();
    for (let n = await count(); n < referenceIds.length; n = await count()) {
      if (n !== archivedSoFar) [archivedSoFar, movedAt] = [n, performance.now()];
      if (performance.now() - movedAt > 120_000) break;
      await poll();
      await sleep(200);
    }
    const backfillSeconds = (performance.now() - started) / 1000;
    devnet.setFaults({
      errorRate: 0,
      latencyMs: 0,
      truncateEventsTo: null,
      rateLimitedRate: 0,
      unavailableRate: 0,
      resetRate: 0,
      hangRate: 0,
      malformedRate: 0,
    });
    log(`back-fill under the mix: ${backfillSeconds.toFixed(1)} s`);
    const baseline = await waitFor(healthy, 60_000);
    log(`all operational ${baseline?.toFixed(1) ?? "never"} s after the mix`);

    // 2. A frozen head: the indexer's view of the head goes stale.
    devnet.setFaults({ freezeHead: true });
    const frozenDown = await waitFor(rpcOrIndexerDown, 90_000);
    devnet.setFaults({ freezeHead: false });
    const frozenUp = await waitFor(healthy, 60_000);
    log(`frozen head: not operational after ${fmt(frozenDown)}, operational ${fmt(frozenUp)} after the thaw`);

    // 3. An error burst: every RPC request fails.
    devnet.setFaults({ errorRate: 1 });
    const burstDown = await waitFor(rpcOrIndexerDown, 60_000);
    devnet.setFaults({ errorRate: 0 });
    const burstUp = await waitFor(healthy, 60_000);
    log(`error burst: not operational after ${fmt(burstDown)}, operational ${fmt(burstUp)} after`);

    // 4. Shortened retention: names added while the indexer is stopped fall out of the RPC's window before it is back.
    controller.abort();
    await running.catch(() => undefined);
    const appended = appendNames(devnet, o.seed, { ledgers: 6, perLedger: 5 });
    devnet.setFaults({ retentionLedgers: 3 });
    const again = new AbortController();
    cleanup.push(async () => again.abort());
    running = indexer.run(again.signal);
    const coverage = async () =>
      (await app.inject({ method: "GET", url: "/v1/coverage" })).json() as CoverageBody;
    const restarted = performance.now();
    let gapListed: number | null = null;
    while (gapListed === null && performance.now() - restarted < 60_000) {
      await poll();
      if ((await coverage()).gaps.length > 0) gapListed = (performance.now() - restarted) / 1000;
      else await sleep(200);
    }
    devnet.setFaults({ retentionLedgers: null });
    const filling = await backfill({
      db: database.db,
      rpc: new RpcClient(devnet.rpcUrl, { retries: 2, backoffMs: 50 }),
      reader: new ContractReader(devnet.rpcUrl, devnet.networkPassphrase),
      registryId: devnet.contracts.registry,
    });
    const filled = filling.reports.filter((r) => r.filled).length;
    const complete = await waitFor(async (s) => healthy(s) && (await coverage()).complete, 60_000);
    log(
      `retention: ${appended} names hidden, gap listed ${fmt(gapListed)} after the restart; backfill filled ${filled}, left ${filling.remaining}; complete ${fmt(complete)} after`,
    );

    again.abort();
    await running.catch(() => undefined);
    const ids = referenceIds;
    const missing = await database.query<{ n: string }>(
      "select count(*) as n from unnest($1::text[]) as ref(id) where not exists (select 1 from events e where e.id = ref.id)",
      [ids],
    );
    const lost = Number(missing[0]?.n ?? 0);
    const archived = await count();
    const recovered = (x: number | null) => x !== null && x <= recoverWithin;
    return {
      seed: o.seed,
      events: referenceIds.length,
      archived,
      lost,
      statusPolls: polls,
      violations: [...new Set(violations)],
      backfillSeconds,
      frozenHead: { notOperationalAfterSeconds: frozenDown, recoveredAfterSeconds: frozenUp },
      errorBurst: { notOperationalAfterSeconds: burstDown, recoveredAfterSeconds: burstUp },
      retention: {
        appended,
        gapListedAfterSeconds: gapListed,
        filled,
        remaining: filling.remaining,
        completeAfterSeconds: complete,
      },
      ok:
        lost === 0 &&
        archived === referenceIds.length + appended &&
        gapListed !== null &&
        filled > 0 &&
        filling.remaining === 0 &&
        recovered(complete) &&
        violations.length === 0 &&
        frozenDown !== null &&
        burstDown !== null &&
        recovered(frozenUp) &&
        recovered(burstUp),
    };
  } finally {
    controller.abort();
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
  }
}

/** Closes `ledgers` ledgers of `perLedger` new names each (issues by the bulk registrars); returns how many. */
function appendNames(
  devnet: Awaited<ReturnType<typeof startNamingDevnet>>,
  seed: number,
  o: { ledgers: number; perLedger: number },
): number {
  const namespaces = devnet.bulk?.namespaces ?? [];
  let n = 0;
  for (let l = 0; l < o.ledgers; l++) {
    const batch: SyntheticEvent[] = [];
    for (let i = 0; i < o.perLedger; i++, n++) {
      const ns = namespaces[n % namespaces.length];
      if (ns === undefined) throw new Error("the bulk scenario has no namespaces");
      const label = `held${seed}x${n}`;
      const holder = bulkHolder(n % 200).publicKey();
      const { topics, data } = encodeEvent({
        type: "name_v1",
        node: nameNode(label, ns.label),
        generation: 1n,
        data: { label, action: "issue", holder, address: holder, expiresAt: 0n },
      });
      batch.push({ contractId: ns.registrar, topics, value: data });
    }
    devnet.chain.appendSyntheticLedger(batch);
  }
  return n;
}

const fmt = (x: number | null) => (x === null ? "never" : `${x.toFixed(1)} s`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
