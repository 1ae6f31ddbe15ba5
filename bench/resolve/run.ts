// Resolve benchmark (docs/design.md "Performance budgets"): loads N names into PostgreSQL, starts the API in its own
// process and measures GET /v1/resolve (wrk, else autocannon) over a random spread of those names (cache warmed first),
// beside two baselines measured in the same run: a bare node:http server answering a fixed JSON body, and
// resolving by simulateTransaction of the lookup contract against a demo devnet (sequential and 10 at a time).
// The spread is requested once more, unmeasured, before each round's resolve run, so answers whose cache lifetime
// lapsed since the warm-up are refilled first (a steady state refills ~1/60 of them a second, not all at once).
// The measurements are interleaved in 3 rounds and the ratios are medians of the per-round ratios, so load from
// elsewhere on the machine skews figures, not ratios; within a round the API and the bare server run in halves,
// API–bare–bare–API, so a drift of the machine's speed weighs on both alike. Also measured: cold resolves (each name requested once, so
// every request misses the cache) beside raw `pg` point reads of the same kind of rows, and the API's RSS with N
// names and after N more. The load generator is wrk where installed (it leaves the server its cores), autocannon
// otherwise; the output says which. Not part of `npm test`.
// With --pin (the default) the load generator runs on one core and every server under test on the other
// (bench/lib/pin.ts), so a server's figure is not its share of cores it fights the load generator for.
//   node bench/resolve/run.ts [--names=1000000] [--spread=20000] [--seconds=10] [--connections=50] [--growth=true]
//                             [--pin=true] [--profile=<dir>]
// --seconds: measured time per server, split over the rounds; --spread: how many distinct names are requested;
// --profile: the API process writes a V8 CPU profile into <dir> when it exits.
import { type ChildProcess, spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { LookupFns, namespaceNode } from "@namereg/protocol";
import { ContractReader } from "@namereg/server";
import { createTestDatabase } from "@namereg/server/testing";
import { Keypair } from "@stellar/stellar-sdk";
import pg from "pg";
import { type Load, loadGenerator, visitAll } from "../lib/load.ts";
import { pinLoadGenerator, pinProcess } from "../lib/pin.ts";
import { joined, type Measured, measured } from "./measured.ts";
import { type Memory, memoryOf } from "./memory.ts";

const { values } = parseArgs({
  options: {
    names: { type: "string", default: "1000000" },
    spread: { type: "string", default: "20000" },
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    growth: { type: "string", default: "true" },
    pin: { type: "string", default: "true" },
    profile: { type: "string" },
  },
});
const total = Number(values.names);
const spread = Math.min(Number(values.spread), total);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const NAMESPACE = "bench";
const HOLDERS = 1000;
const ROUNDS = 3;

const pinning = pinLoadGenerator(values.pin !== "false");

const children: ChildProcess[] = [];
let lastChild: ChildProcess | undefined;
function start(args: string[], nodeFlags: string[] = []): Promise<string> {
  const child = spawn(process.execPath, [...nodeFlags, ...args], {
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  children.push(child);
  lastChild = child;
  // Every child here is a server under test or a baseline server: it leaves the load generator's core at once.
  if ("server" in pinning && child.pid !== undefined) pinProcess(child.pid, pinning.server);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (/READY \S+/.test(out) || /lookup\s+C\w+/.test(out)) resolve(out);
    });
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}`)));
  });
}
const here = (path: string) => new URL(path, import.meta.url).pathname;
const readyUrl = (out: string) => /READY (\S+)/.exec(out)?.[1] ?? "";

const generate = loadGenerator();
const load = (base: string, paths: readonly string[], opts: { duration?: number; order?: "sequential" }) =>
  generate(base, paths, {
    connections,
    seconds: opts.duration ?? seconds,
    ...(opts.order === undefined ? {} : { order: opts.order }),
  });

const holders = Array.from({ length: HOLDERS }, () => Keypair.random().publicKey());
const database = await createTestDatabase("postgres");

/** The names n<from>..n<to> of the bench namespace, set-based. */
async function insertNames(from: number, to: number): Promise<void> {
  await database.query(
    `insert into names (node, namespace, label, holder, address, expires_at, generation, active,
                        issued_ledger, issued_at, tx_hash, updated_ledger)
     select encode(sha256(decode($1, 'hex') || sha256(convert_to('n' || i, 'UTF8'))), 'hex'),
            $2, 'n' || i, ($3::text[])[1 + i % $4], ($3::text[])[1 + i % $4],
            -- one name in ten is timed, all of them far in the future
            case when i % 10 = 0 then 4102444800 else null end,
            1, true, 1000 + i, now(), md5(i::text) || md5((-i)::text), 1000 + i
     from generate_series($5::int, $6::int) as i`,
    [namespaceNode(NAMESPACE), NAMESPACE, holders, HOLDERS, from, to],
  );
  await database.query("analyze names");
}

try {
  // ---- data: one namespace and N names with their real nodes, set-based in the database ----
  let t = performance.now();
  await database.query(
    `insert into namespaces (node, label, owner, registrar, method, allocated_ledger, tx_hash)
     values ($1, $2, $3, $4, 'reserved', 1, repeat('0', 64))`,
    [namespaceNode(NAMESPACE), NAMESPACE, holders[0], "CBENCHREGISTRAR"],
  );
  // Resolve reads names by primary key only; the trigram and pattern indexes (for /v1/lookup) would triple the
  // load time of this throw-away database, so it goes without them.
  await database.query("drop index names_label_trgm_idx; drop index names_label_pattern_idx");
  await insertNames(1, total);
  const loadSeconds = (performance.now() - t) / 1000;
  const picks = new Set<number>();
  while (picks.size < spread) picks.add(1 + Math.floor(Math.random() * total));
  const paths = [...picks].map((i) => `/v1/resolve/${NAMESPACE}/n${i}`);
  // Cold: names outside the warm spread, a fresh slice per round, never requested twice.
  const coldPool = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !picks.has(i));
  for (let i = coldPool.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [coldPool[i], coldPool[j]] = [coldPool[j] as number, coldPool[i] as number];
  }
  let coldNext = 0;
  const coldSlice = (count: number) => {
    const slice = coldPool.slice(coldNext, coldNext + count);
    coldNext += count;
    return slice;
  };
  const pathOf = (i: number) => `/v1/resolve/${NAMESPACE}/n${i}`;
  const raw = new pg.Pool({ connectionString: database.url, max: 10 });
  const nodesOf = async (indexes: number[]) =>
    (
      await raw.query<{ node: string }>("select node from names where namespace = $1 and label = any($2)", [
        NAMESPACE,
        indexes.map((i) => `n${i}`),
      ])
    ).rows.map((r) => r.node);
  /** Point reads per second of whole name rows by primary key through `pg`, `connections` at a time. */
  const pointReads = async (nodes: string[], duration: number): Promise<number> => {
    const until = performance.now() + duration * 1000;
    let done = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < until) {
          const node = nodes[next++ % nodes.length];
          const { rows } = await raw.query("select * from names where node = $1", [node]);
          if (rows.length !== 1) throw new Error(`point read of ${node} found ${rows.length} rows`);
          done++;
        }
      }),
    );
    return done / duration;
  };

  // ---- the servers: the API (cache warmed over the spread), bare node:http, a demo devnet ----
  const profile = values.profile === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${values.profile}`];
  const api = readyUrl(await start([here("./server.ts"), "api", database.url], ["--expose-gc", ...profile]));
  t = performance.now();
  const apiProcess = lastChild as ChildProcess;
  const warmFailed = await visitAll(api, paths, connections);
  const warmSeconds = (performance.now() - t) / 1000;
  if (warmFailed > 0) throw new Error(`${warmFailed} warm-up requests failed`);
  // The bare server answers with the very headers and body of a cached answer (the date and connection headers
  // node:http adds to both), so the ratio measures the API's own work, not a shorter answer.
  const sample = await fetch(new URL(paths[0] ?? "", api));
  const sampleHeaders = [...sample.headers].filter(
    ([k]) => !["date", "connection", "keep-alive"].includes(k),
  );
  const sampleAnswer = JSON.stringify({ headers: sampleHeaders.flat(), body: await sample.text() });
  const bare = readyUrl(await start([here("./server.ts"), "bare", sampleAnswer]));
  const bareProcess = lastChild as ChildProcess;
  const banner = await start([
    here("../../packages/server/src/cli.ts"),
    "devnet",
    "--scenario=demo",
    "--close-interval-ms=0",
    `--port=${8900 + Math.floor(Math.random() * 90)}`,
  ]);
  const field = (name: string) => new RegExp(`${name}\\s+(\\S+)`).exec(banner)?.[1] ?? "";
  const passphrase = /network passphrase\s+(\S.*)/.exec(banner)?.[1]?.trim() ?? "";
  const reader = new ContractReader(field("RPC URL"), passphrase);
  const lookupId = field("lookup");
  /** Lookups per second by simulateTransaction, `concurrency` at a time. */
  const simulate = async (concurrency: number, duration: number): Promise<number> => {
    const until = performance.now() + duration * 1000;
    let done = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < until) {
          const answer = await reader.read(lookupId, LookupFns.lookup, { name: "alice.acme" });
          if (answer === null) throw new Error("lookup of alice.acme returned nothing");
          done++;
        }
      }),
    );
    return done / duration;
  };
  // Every server gets the same short unmeasured run first, so the JIT has warmed up for all of them alike.
  await load(api, paths, { duration: 2 });
  await load(api, ["/health"], { duration: 1 });
  await load(bare, ["/"], { duration: 2 });
  await simulate(10, 1);

  // ---- rounds: each measures everything once, so a neighbour's load on the machine hits all alike ----
  const round = Math.max(1, seconds / ROUNDS);
  // The most requests a cold run can make without repeating a name (generous: 25k req/s), within the pool.
  const coldSeconds = Math.min(round, 2);
  const coldBudget = Math.min(Math.ceil(coldSeconds * 25_000), Math.floor(coldPool.length / ROUNDS));
  const rounds: {
    resolve: Measured;
    health: Load;
    bare: Measured;
    seq: number;
    conc: number;
    cold: Load;
    points: number;
  }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // Answers filled together at warm-up lapse together (the positive TTL is 60 s, shortened by up to a fifth):
    // refill any that did, unmeasured, so every round measures a warm cache as the first one does.
    await visitAll(api, paths, connections);
    // The API and the bare server are measured in halves, API–bare–bare–API, so a drift of the machine's speed
    // during the round (other tenants of the host) weighs on both alike instead of on whichever ran second.
    const half = round / 2;
    const resolveFirst = await measured(apiProcess, () => load(api, paths, { duration: half }));
    const bareFirst = await measured(bareProcess, () => load(bare, ["/"], { duration: half }));
    const bareSecond = await measured(bareProcess, () => load(bare, ["/"], { duration: half }));
    const resolveSecond = await measured(apiProcess, () => load(api, paths, { duration: half }));
    const resolve = joined(resolveFirst, resolveSecond);
    const base = joined(bareFirst, bareSecond);
    const health = await load(api, ["/health"], { duration: round });
    const seq = await simulate(1, Math.min(round, 2));
    const conc = await simulate(10, Math.min(round, 2));
    // The same rows both ways: the API misses its cache on each once; pg reads them by primary key.
    const slice = coldSlice(coldBudget);
    const cold = await load(api, slice.map(pathOf), { duration: coldSeconds, order: "sequential" });
    const points = await pointReads(await nodesOf(slice), coldSeconds);
    rounds.push({ resolve, health, bare: base, seq, conc, cold, points });
  }
  const warm = await memoryOf(apiProcess, api);

  // Growth: N more names, the spread warmed again and 20,000 of the new names resolved, then the RSS again.
  let growth: { names: number; memory: Memory } | null = null;
  if (values.growth !== "false") {
    await insertNames(total + 1, 2 * total);
    await visitAll(api, paths, connections);
    const fresh = Array.from({ length: 20_000 }, () => total + 1 + Math.floor(Math.random() * total));
    await visitAll(api, fresh.map(pathOf), connections);
    growth = { names: 2 * total, memory: await memoryOf(apiProcess, api) };
  }
  await raw.end();

  const n = (x: number) => Math.round(x).toLocaleString("en-US");
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const latency = (l: Load) => `p50 ${l.p50.toFixed(2)} ms  p99 ${l.p99.toFixed(2)} ms`;
  const cpu = (l: { cpu: number }) => `server CPU ${l.cpu.toFixed(1)} µs/request`;
  console.log(`load generator          ${generate.tool}`);
  console.log(`pinning                 ${"describe" in pinning ? pinning.describe : pinning.why}`);
  console.log(
    `names loaded            ${n(total)} in ${loadSeconds.toFixed(1)} s (spread: ${n(spread)} random names)`,
  );
  console.log(`cache warm-up           ${n(spread)} requests in ${warmSeconds.toFixed(1)} s`);
  console.log(
    `rounds                  ${ROUNDS} × ${round.toFixed(1)} s per server (resolve and bare in halves, API–bare–bare–API), ${connections} connections`,
  );
  rounds.forEach((x, i) => {
    console.log(`round ${i + 1}`);
    console.log(
      `  GET /v1/resolve       ${n(x.resolve.rps)} req/s  ${latency(x.resolve)}  (failed ${x.resolve.failed})  ${cpu(x.resolve)}`,
    );
    console.log(`  same app, /health     ${n(x.health.rps)} req/s  ${latency(x.health)}`);
    console.log(`  bare node:http        ${n(x.bare.rps)} req/s  ${latency(x.bare)}  ${cpu(x.bare)}`);
    console.log(
      `  simulate lookup       ${x.seq.toFixed(1)} req/s sequential, ${x.conc.toFixed(1)} req/s at concurrency 10`,
    );
    console.log(
      `  cold resolve (misses) ${n(x.cold.rps)} req/s  ${latency(x.cold)}  (failed ${x.cold.failed})`,
    );
    console.log(`  raw pg point reads    ${n(x.points)} rows/s (pool of 10, ${connections} at a time)`);
  });
  if (rounds.some((x) => x.resolve.failed > 0 || x.cold.failed > 0))
    console.log(
      "WARNING: some resolve requests failed (see the rounds): those rounds measured something else",
    );
  const vsBare = median(rounds.map((x) => x.resolve.rps / x.bare.rps));
  const cpuVsBare = median(rounds.map((x) => x.bare.cpu / x.resolve.cpu));
  const healthVsBare = median(rounds.map((x) => x.health.rps / x.bare.rps));
  const vsSequential = median(rounds.map((x) => x.resolve.rps / x.seq));
  const vsConcurrent = median(rounds.map((x) => x.resolve.rps / x.conc));
  const coldVsPoints = median(rounds.map((x) => x.cold.rps / x.points));
  console.log(`median ratio bare/resolve CPU/request ${cpuVsBare.toFixed(2)}  (budget: ≥ 0.80)`);
  console.log(`median ratio resolve/bare req/s      ${vsBare.toFixed(2)}`);
  console.log(
    `median ratio /health/bare             ${healthVsBare.toFixed(2)}  (the app's shared plugins alone)`,
  );
  // Not a budget: it follows the devnet's own simulate speed, not this service's.
  console.log(`median ratio resolve/simulate seq     ${vsSequential.toFixed(0)}×  (printed, no budget)`);
  console.log(`median ratio resolve/simulate conc10  ${vsConcurrent.toFixed(0)}×`);
  console.log(`median ratio cold resolve/pg reads    ${coldVsPoints.toFixed(2)}  (budget: ≥ 0.50)`);
  const mib = (x: number) => `${x.toFixed(0)} MiB`;
  const memoryLine = (m: Memory) =>
    `RSS ${mib(m.rss)}, JS heap in use after a full GC ${mib(m.heap)}, ${n(m.entries)} cached answers`;
  console.log(`API memory, ${n(total)} names, warm  ${memoryLine(warm)}`);
  if (growth !== null) {
    const { memory } = growth;
    const perMillion = (key: "rss" | "heap") => ((memory[key] - warm[key]) / (total / 1_000_000)).toFixed(1);
    const moreEntries = memory.entries - warm.entries;
    // A cache already at its bound holds no more answers after the growth: the heap per answer is then the
    // heap with the cache's own answers, not a difference divided by zero.
    const perEntry =
      moreEntries > 0
        ? `the heap difference over the cache's: ${(((memory.heap - warm.heap) * 2 ** 20) / moreEntries).toFixed(0)} bytes per cached answer`
        : `the cache was full before the growth (${n(memory.entries)} answers, its bound), so no per-answer figure: the heap grew ${(memory.heap - warm.heap).toFixed(1)} MiB with the cache's size unchanged`;
    console.log(`API memory, ${n(growth.names)} names      ${memoryLine(memory)}`);
    console.log(
      `  per 1M more names: RSS ${perMillion("rss")} MiB, heap ${perMillion("heap")} MiB; ${perEntry} ` +
        `(names live in the database; the cache is bounded at 100,000 answers)`,
    );
  }
} finally {
  // The API must be gone before its database is dropped under it.
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve(undefined);
          child.once("exit", resolve);
          child.kill("SIGTERM");
        }),
    ),
  );
  await database.close();
}
