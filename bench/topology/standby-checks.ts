// The topology suite's standby checks (suite.ts), with a hot standby read by two `serve` replicas: right after the
// rate limit, while one writer indexes, how soon each route gives a changed name's new answer (freshness.ts); at
// the end, the standby's replay lag as /v1/status reports it (`Read replica`): 0 s once nothing is written, `down`
// once the standby is stopped, and absent on the replicas reading the primary.
import type { NamingDevnet } from "@namereg/devnet";
import type { PrivatePostgres } from "@namereg/server/testing";
import { type FreshnessResult, freshnessCheck, type ReplicaStatusSample } from "./freshness.ts";
import { client, type HttpClient } from "./http-client.ts";
import { HOLDERS } from "./live-chain.ts";
import { sleep, untilAsync } from "./waiting.ts";

export interface StandbyOptions {
  /** `recovery_min_apply_delay` of the standby. */
  applyDelayMs: number;
  /** Changes whose freshness is measured, one at a time. */
  changes: number;
  /** Longest one change may take to reach the standby and every route (default 30 s plus the delay). */
  boundSeconds?: number;
}

export interface StandbyResult {
  applyDelayMs: number;
  freshness: FreshnessResult;
  /** The standby replicas' `Read replica` component once the chain is idle and the standby caught up. */
  caughtUp: ReplicaStatusSample[];
  /** The same after the standby was stopped. */
  stopped: ReplicaStatusSample[];
  /** The replicas reading the primary show no `Read replica` component. */
  absentWithoutReplica: boolean;
}

/** How soon each route on the standby's replicas has a change, and no cache keeping an old answer. */
export async function standbyFreshness(o: {
  devnet: NamingDevnet;
  cluster: PrivatePostgres;
  standby: PrivatePostgres;
  standbyReplicas: string[];
  options: StandbyOptions;
  /** Bulk names on the chain. */
  names: number;
  rand: () => number;
  failures: string[];
  log: (line: string) => void;
}): Promise<FreshnessResult> {
  const { devnet, cluster, standby, standbyReplicas, rand, failures, log } = o;
  const freshness = await freshnessCheck({
    devnet,
    primaryUrl: cluster.url,
    standbyUrl: standby.url,
    replicas: standbyReplicas,
    changes: o.options.changes,
    names: o.names,
    holders: HOLDERS,
    rand,
    boundSeconds: o.options.boundSeconds ?? 30 + o.options.applyDelayMs / 1000,
    log,
  });
  const f = freshness;
  const p = (x: { p50: number | null; p95: number | null; n: number }) =>
    `p50 ${fmtS(x.p50)} / p95 ${fmtS(x.p95)} (n ${x.n})`;
  log(
    `standby freshness over ${f.changes} changes (${f.requests} requests): on the primary ${p(f.primary)}, on the standby ${p(f.standby)}; resolve ${p(f.routes.resolve)}; name ${p(f.routes.name)}; by-holder ${p(f.routes["by-holder"])}; history ${p(f.routes.history)}; old answers after the standby had the change: ${f.staleAfterStandby.length}; old after new: ${f.flips.length}; other answers: ${f.bad.length}`,
  );
  const lags = f.status.map((s) => s.lagSeconds).filter((x): x is number => x !== null);
  log(
    `  /v1/status Read replica while writing: ${[...new Set(f.status.map((s) => s.state))].join(", ")}, lagSeconds ${Math.min(...lags).toFixed(3)}–${Math.max(...lags).toFixed(3)}`,
  );
  if (!f.ok)
    failures.push(
      `standby freshness: ${[...f.unfinished, ...f.staleAfterStandby, ...f.flips, ...f.bad].slice(0, 8).join("; ")}`,
    );
  if (f.status.some((s) => s.state !== "operational" || s.lagSeconds === null))
    failures.push(`standby status while writing: ${JSON.stringify(f.status)}`);
  return freshness;
}

/**
 * The standby's lag as /v1/status reports it once nothing is written (the indexers stopped), then with the
 * standby stopped.
 */
export async function standbyIdleCheck(o: {
  standby: PrivatePostgres;
  replicas: string[];
  standbyReplicas: string[];
  options: StandbyOptions;
  freshness: FreshnessResult;
  failures: string[];
  log: (line: string) => void;
}): Promise<StandbyResult> {
  const { standby, replicas, standbyReplicas, freshness, failures, log } = o;
  // Addresses of their own (127.0.4.x), one after another: polled, they would exhaust one address's limit.
  const statusClients = Array.from({ length: 50 }, (_, i) =>
    client(`127.0.4.${i + 1}`, { keepAlive: false }),
  );
  let nextStatusClient = 0;
  const readStatus = async (url: string) => {
    const http = statusClients[nextStatusClient++ % statusClients.length] as HttpClient;
    const answer = await http.get(`${url}/v1/status`);
    if (answer.status !== 200) throw new Error(`/v1/status answered ${answer.status} ${answer.body}`);
    const body = JSON.parse(answer.body) as { components: (ReplicaStatusSample & { name: string })[] };
    const c = body.components.find((x) => x.name === "Read replica");
    return c === undefined ? null : { state: c.state, lagSeconds: c.lagSeconds, lagBytes: c.lagBytes };
  };
  const caughtUp: ReplicaStatusSample[] = [];
  for (const url of standbyReplicas) {
    let last: ReplicaStatusSample | null = null;
    await untilAsync(
      async () => {
        last = await readStatus(url);
        if (last?.lagBytes === 0) return true;
        await sleep(100);
        return false;
      },
      "the standby to catch up",
      60_000,
    ).catch((err: Error) => failures.push(`${err.message}: ${JSON.stringify(last)}`));
    if (last !== null) caughtUp.push(last);
  }
  const absentWithoutReplica = (await Promise.all(replicas.map(readStatus))).every((c) => c === null);
  await standby.halt();
  const stopped: ReplicaStatusSample[] = [];
  for (const url of standbyReplicas)
    stopped.push((await readStatus(url)) ?? { state: "absent", lagSeconds: null, lagBytes: null });
  log(
    `standby idle: Read replica ${caughtUp.map((c) => `${c.state} ${c.lagSeconds} s / ${c.lagBytes} bytes`).join(", ")}; stopped: ${stopped.map((c) => c.state).join(", ")}; absent on the replicas reading the primary: ${absentWithoutReplica}`,
  );
  if (
    caughtUp.length !== standbyReplicas.length ||
    caughtUp.some((c) => c.state !== "operational" || c.lagSeconds !== 0)
  )
    failures.push(`standby idle: ${JSON.stringify(caughtUp)}`);
  if (stopped.some((c) => c.state !== "down")) failures.push(`standby stopped: ${JSON.stringify(stopped)}`);
  if (!absentWithoutReplica) failures.push("a replica reading the primary shows a Read replica component");
  for (const c of statusClients) c.close();
  return {
    applyDelayMs: o.options.applyDelayMs,
    freshness,
    caughtUp,
    stopped,
    absentWithoutReplica,
  };
}

const fmtS = (x: number | null) => (x === null ? "–" : `${x.toFixed(2)} s`);
