// /v1/stream latency (issue 29): N real chain changes (text records of alice.acme, one signed transaction each) on
// a demo devnet, indexed by the real indexer at its production poll (1 s), served by the real app; an SSE client
// receives them. Per change it prints the time from the transaction's success (the wallet saw it confirmed) to the
// event's receipt, split at the indexer's commit (its NOTIFY on namereg_changes, heard by a raw listener here):
// the indexer's share and the stream's share. The raw NOTIFY is the baseline: the earliest any push could come.
// Everything runs in this one process (devnet, indexer, app, client) on whatever the machine has.
// The indexer runs as `namereg` runs it: a 1 s idle pass and the head poll (INDEXER_HEAD_POLL_MS, default 200 ms;
// --head-poll=0 measures without it).
//   npx node bench/stream/run.ts [--changes=300] [--db=pglite|postgres] [--poll=1000] [--head-poll=200]
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { demoKeypair, settlingWallet } from "@namereg/devnet";
import { nameNode, ResolverFns } from "@namereg/protocol";
import { buildApp, CHANGES_CHANNEL } from "@namereg/server";
import { indexDemo, indexerFor, openSse, testConfig } from "@namereg/server/testing";

const { values } = parseArgs({
  options: {
    changes: { type: "string", default: "300" },
    db: { type: "string", default: "pglite" },
    poll: { type: "string", default: "1000" },
    "head-poll": { type: "string", default: "200" },
  },
});
const changes = Number(values.changes);
const kind = values.db === "postgres" ? "postgres" : "pglite";
const pollMs = Number(values.poll);
const headPollMs = Number(values["head-poll"]);

const demo = await indexDemo(kind);
const app = await buildApp({
  config: testConfig({ RATE_LIMIT_PER_MINUTE: "1000000" }),
  db: demo.database,
  redis: null,
});
const base = await app.listen({ port: 0, host: "127.0.0.1" });
// An indexer at the production poll takes over from the one that indexed the demo (it reads its state back).
const indexer = indexerFor(demo.devnet, demo.database.db, { pollMs, headPollMs });
await indexer.init();
const stop = new AbortController();
const running = indexer.run(stop.signal);

const committedAt = new Map<number, number>();
const notified = await demo.database.listen(CHANGES_CHANNEL, (payload) => {
  committedAt.set(Number(payload), performance.now());
});
const stream = await openSse(`${base}/v1/stream?types=record.text_changed`);
if (stream.status !== 200) throw new Error(`stream answered ${stream.status}`);

const wallet = settlingWallet(demo.devnet);
const resolver = demo.devnet.demo?.namespaces.acme.resolver ?? "";
const succeededAt = new Map<string, number>();
const load = loadavg()[0] ?? 0;
const started = performance.now();
try {
  for (let i = 0; i < changes; i++) {
    const key = `k${i}`;
    await wallet.invoke(demoKeypair("alice"), resolver, ResolverFns.set_text, {
      node: nameNode("alice", "acme"),
      key,
      value: "v",
    });
    succeededAt.set(key, performance.now());
  }
  const events = await stream.waitForEvents(changes, 60_000 + changes * 1000);
  const receivedAt = new Map<string, number>();
  // Receipt time per event: the client stamps each as it parses it.
  for (const [index, at] of stream.receivedAt().entries()) {
    const event = events[index];
    if (event === undefined) continue;
    receivedAt.set(JSON.parse(event.data).data.key as string, at);
  }
  const total: number[] = [];
  const indexerShare: number[] = [];
  const streamShare: number[] = [];
  // A change's commit is the first NOTIFY whose highest position covers its own.
  const commits = [...committedAt.entries()].sort(([a], [b]) => a - b);
  for (const event of events) {
    const key = JSON.parse(event.data).data.key as string;
    const success = succeededAt.get(key);
    const received = receivedAt.get(key);
    const commit = commits.find(([top]) => top >= Number(event.id))?.[1];
    if (success === undefined || received === undefined || commit === undefined) continue;
    total.push(received - success);
    indexerShare.push(commit - success);
    streamShare.push(received - commit);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `changes           ${events.length}/${changes} received in ${seconds.toFixed(1)} s on ${kind}, indexer poll ${pollMs} ms (head poll ${headPollMs} ms), load ${load.toFixed(1)}`,
  );
  console.log(`success→receipt   ${summary(total)}`);
  console.log(`  success→commit  ${summary(indexerShare)}   (the indexer: poll, fetch, batch transaction)`);
  console.log(
    `  commit→receipt  ${summary(streamShare)}   (the stream: notification, outbox read, SSE write)`,
  );
  console.log(
    `stream share of p95 ${(percentile(streamShare, 95) / Math.max(percentile(total, 95), 1e-9)).toFixed(3)}`,
  );
  process.exitCode = events.length === changes ? 0 : 1;
} finally {
  stream.close();
  stop.abort();
  await running.catch(() => {});
  await notified.close();
  await app.close();
  await demo.devnet.stop();
  await demo.database.close();
}

function percentile(list: readonly number[], p: number): number {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function summary(list: readonly number[]): string {
  const f = (ms: number) => `${ms.toFixed(0).padStart(5)} ms`;
  return `p50 ${f(percentile(list, 50))}  p95 ${f(percentile(list, 95))}  max ${f(Math.max(...list))}`;
}
