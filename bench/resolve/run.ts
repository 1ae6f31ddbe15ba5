// Resolve benchmark (DESIGN performance budgets): loads N names into PostgreSQL, starts the API in its own
// process and measures GET /v1/resolve with autocannon over a random spread of those names (cache warmed first),
// beside two baselines measured in the same run: a bare node:http server answering a fixed JSON body, and
// resolving by simulateTransaction of the lookup contract against a demo devnet (sequential and 10 at a time).
// The measurements are interleaved in 3 rounds and the ratios are medians of the per-round ratios, so load from
// elsewhere on the machine skews figures, not ratios. Not part of `npm test`.
//   node bench/resolve/run.ts [--names=1000000] [--spread=20000] [--seconds=10] [--connections=50]
// --seconds: measured time per server, split over the rounds; --spread: how many distinct names are requested.
import { type ChildProcess, spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { LookupFns, namespaceNode } from "@namereg/protocol";
import { ContractReader } from "@namereg/server";
import { createTestDatabase } from "@namereg/server/testing";
import { Keypair } from "@stellar/stellar-sdk";
import autocannon from "autocannon";

const { values } = parseArgs({
  options: {
    names: { type: "string", default: "1000000" },
    spread: { type: "string", default: "20000" },
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
  },
});
const total = Number(values.names);
const spread = Math.min(Number(values.spread), total);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const NAMESPACE = "bench";
const HOLDERS = 1000;
const ROUNDS = 3;

const children: ChildProcess[] = [];
function start(args: string[]): Promise<string> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
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

interface Load {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/** autocannon for `duration` seconds over `paths`, picked at random per request (or in order once, to warm). */
async function load(base: string, paths: readonly string[], opts: { duration?: number; amount?: number }) {
  let next = 0;
  const result = await autocannon({
    url: base,
    connections,
    ...(opts.amount === undefined ? { duration: opts.duration ?? seconds } : { amount: opts.amount }),
    requests: [
      {
        setupRequest: (req) => {
          const path =
            opts.amount === undefined
              ? paths[Math.floor(Math.random() * paths.length)]
              : paths[next++ % paths.length];
          return { ...req, path: path ?? "/" };
        },
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
  } satisfies Load;
}

const database = await createTestDatabase("postgres");
try {
  // ---- data: one namespace and N names with their real nodes, set-based in the database ----
  let t = performance.now();
  const holders = Array.from({ length: HOLDERS }, () => Keypair.random().publicKey());
  await database.query(
    `insert into namespaces (node, label, owner, registrar, method, allocated_ledger, tx_hash)
     values ($1, $2, $3, $4, 'reserved', 1, repeat('0', 64))`,
    [namespaceNode(NAMESPACE), NAMESPACE, holders[0], "CBENCHREGISTRAR"],
  );
  // Resolve reads names by primary key only; the trigram and pattern indexes (for /v1/lookup) would triple the
  // load time of this throw-away database, so it goes without them.
  await database.query("drop index names_label_trgm_idx; drop index names_label_pattern_idx");
  await database.query(
    `insert into names (node, namespace, label, holder, address, expires_at, generation, active,
                        issued_ledger, issued_at, tx_hash, updated_ledger)
     select encode(sha256(decode($1, 'hex') || sha256(convert_to('n' || i, 'UTF8'))), 'hex'),
            $2, 'n' || i, ($3::text[])[1 + i % $4], ($3::text[])[1 + i % $4],
            -- one name in ten is timed, all of them far in the future
            case when i % 10 = 0 then 4102444800 else null end,
            1, true, 1000 + i, now(), md5(i::text) || md5((-i)::text), 1000 + i
     from generate_series(1, $5::int) as i`,
    [namespaceNode(NAMESPACE), NAMESPACE, holders, HOLDERS, total],
  );
  await database.query("analyze names");
  const loadSeconds = (performance.now() - t) / 1000;
  const picks = new Set<number>();
  while (picks.size < spread) picks.add(1 + Math.floor(Math.random() * total));
  const paths = [...picks].map((i) => `/v1/resolve/${NAMESPACE}/n${i}`);

  // ---- the servers: the API (cache warmed over the spread), bare node:http, a demo devnet ----
  const api = readyUrl(await start([here("./server.ts"), "api", database.url]));
  t = performance.now();
  const warm = await load(api, paths, { amount: spread });
  const warmSeconds = (performance.now() - t) / 1000;
  if (warm.non2xx > 0) throw new Error(`${warm.non2xx} warm-up requests failed`);
  const bare = readyUrl(await start([here("./server.ts"), "bare"]));
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
  const rounds: { resolve: Load; health: Load; bare: Load; seq: number; conc: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const resolve = await load(api, paths, { duration: round });
    const health = await load(api, ["/health"], { duration: round });
    const base = await load(bare, ["/"], { duration: round });
    const seq = await simulate(1, Math.min(round, 2));
    const conc = await simulate(10, Math.min(round, 2));
    rounds.push({ resolve, health, bare: base, seq, conc });
  }

  const n = (x: number) => Math.round(x).toLocaleString("en-US");
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const latency = (l: Load) => `p50 ${l.p50} ms  p99 ${l.p99} ms`;
  console.log(
    `names loaded            ${n(total)} in ${loadSeconds.toFixed(1)} s (spread: ${n(spread)} random names)`,
  );
  console.log(`cache warm-up           ${n(spread)} requests in ${warmSeconds.toFixed(1)} s`);
  console.log(
    `rounds                  ${ROUNDS} × ${round.toFixed(1)} s per server, ${connections} connections`,
  );
  rounds.forEach((x, i) => {
    console.log(`round ${i + 1}`);
    console.log(
      `  GET /v1/resolve       ${n(x.resolve.rps)} req/s  ${latency(x.resolve)}  (non-2xx ${x.resolve.non2xx})`,
    );
    console.log(`  same app, /health     ${n(x.health.rps)} req/s  ${latency(x.health)}`);
    console.log(`  bare node:http        ${n(x.bare.rps)} req/s  ${latency(x.bare)}`);
    console.log(
      `  simulate lookup       ${x.seq.toFixed(1)} req/s sequential, ${x.conc.toFixed(1)} req/s at concurrency 10`,
    );
  });
  const vsBare = median(rounds.map((x) => x.resolve.rps / x.bare.rps));
  const healthVsBare = median(rounds.map((x) => x.health.rps / x.bare.rps));
  const vsSequential = median(rounds.map((x) => x.resolve.rps / x.seq));
  const vsConcurrent = median(rounds.map((x) => x.resolve.rps / x.conc));
  console.log(`median ratio resolve/bare             ${vsBare.toFixed(2)}  (budget: ≥ 0.60)`);
  console.log(
    `median ratio /health/bare             ${healthVsBare.toFixed(2)}  (the app's shared plugins alone)`,
  );
  console.log(`median ratio resolve/simulate seq     ${vsSequential.toFixed(0)}×  (budget: ≥ 50×)`);
  console.log(`median ratio resolve/simulate conc10  ${vsConcurrent.toFixed(0)}×  (budget: ≥ 50×)`);
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
