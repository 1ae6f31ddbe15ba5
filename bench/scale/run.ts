// Scale benchmark (issue #30): the API over N names and an archive of M events in PostgreSQL. Seeds the database
// once per size (test/fixtures/scale-seed.ts; reused by later runs), starts the real app in its own process
// (bench/resolve/server.ts, as `namereg serve` builds it) and measures, each route a fixed number of requests at a
// fixed concurrency (measure.ts): resolve hot (cache warmed) and cold (every request a miss) beside raw `pg` point
// reads of other names, /v1/lookup (prefix, common substring, rare substring), the directory (reverse of a big and
// a small holder, the namespace roster), /v1/names/by-holder of a big and a small holder, /v1/events paged from
// the first page, from a cursor 99% into the archive and from the last page; then the API's RSS and the
// database's size per table, as bytes per million names or events. With --compare=<an earlier run's JSON>, the
// figures print beside that run's, with the growth ratio (this run / that one).
//   npx node bench/scale/run.ts --names=10000000 --events=10000000 [--server=postgres://…/postgres]
//                               [--requests=1000] [--concurrency=4] [--seed=1] [--out=bench/scale/results/<names>.json]
//                               [--compare=bench/scale/results/1000000.json] [--print=<a run's JSON>]
// The query plans behind these routes are checked by packages/server/src/db/plans.integration.test.ts.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { openDatabase } from "@namereg/server";
import { scaleHolder } from "@namereg/server/testing";
import pg from "pg";
import { encodeCursor } from "../../packages/server/src/api/routes/archive/events-query.ts";
import { scaleDatabase } from "./database.ts";
import { databaseTimes } from "./db-times.ts";
import { getAll, type Latency, timed } from "./measure.ts";

const { values } = parseArgs({
  options: {
    names: { type: "string", default: "1000000" },
    events: { type: "string" },
    seed: { type: "string", default: "1" },
    server: {
      type: "string",
      default: process.env.SCALE_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
    requests: { type: "string", default: "1000" },
    concurrency: { type: "string", default: "4" },
    compare: { type: "string" },
    out: { type: "string" },
    /** Print an earlier run's JSON (beside --compare's) without measuring. */
    print: { type: "string" },
  },
});
const names = Number(values.names);
const events = Number(values.events ?? values.names);
const seed = Number(values.seed);
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const log = (line: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${line}`);

interface Result {
  readonly names: number;
  readonly events: number;
  readonly date: string;
  readonly loadAverage: number[];
  readonly seedSeconds: number | null;
  readonly routes: Record<string, Latency>;
  /** Median server-side execution of each route's statements (db-times.ts). */
  readonly dbMs: Record<string, number>;
  readonly rssMiB: number;
  readonly tables: Record<string, number>;
}

if (values.print !== undefined) {
  report(readResult(values.print), values.compare === undefined ? undefined : readResult(values.compare));
  process.exit(0);
}

const load = loadavg().map((x) => Math.round(x * 10) / 10);
log(
  `load average ${load.join(" ")}; ${names} names, ${events} events; ${requests} requests a route, ${concurrency} at a time`,
);
const { url, seedSeconds } = await scaleDatabase(values.server, { names, events, seed }, log);
log(seedSeconds === null ? `reusing ${url}` : `seeded ${url} in ${seedSeconds.toFixed(0)} s`);

const client = new pg.Pool({ connectionString: url, max: concurrency });
const children: ChildProcess[] = [];
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

function startApi(): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(
    process.execPath,
    ["--expose-gc", new URL("../resolve/server.ts", import.meta.url).pathname, "api", url],
    { stdio: ["ignore", "pipe", "inherit", "ipc"] },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /READY (\S+)/.exec(out);
      if (ready?.[1] !== undefined) resolve({ child, base: ready[1] });
    });
    child.once("exit", (code) => reject(new Error(`the API exited with ${code}`)));
  });
}

/** Resident set size of a process, in MiB (Linux /proc). */
function rssMiB(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

try {
  // ---- what to ask for: a random sample of live names, a big and a small holder, archive positions ----
  const now = Math.floor(Date.now() / 1000);
  // Pages of names sampled at random, about four times what is needed (most names are live).
  const wanted = 500 + 2 * requests;
  const percent = Math.min(100, (4 * wanted * 100) / names);
  const { rows: sample } = await client.query<{ namespace: string; label: string; node: string }>(
    `select namespace, label, node from names tablesample system (${percent}) repeatable (${seed})
     where active and (expires_at is null or expires_at > $1) limit $2`,
    [now, wanted],
  );
  if (sample.length < wanted) throw new Error(`sampled ${sample.length} names; need ${wanted}`);
  const hot = sample.slice(0, 500).map((r) => `/v1/resolve/${r.namespace}/${r.label}`);
  const cold = sample.slice(500, 500 + requests).map((r) => `/v1/resolve/${r.namespace}/${r.label}`);
  const rawNodes = sample.slice(500 + requests, 500 + 2 * requests).map((r) => r.node);
  const bigHolder = scaleHolder(seed, 0);
  // A holder with a typical count of names (holders are spread evenly but for holder 0).
  const small = await client.query<{ holder: string; n: number }>(
    "select holder, count(*)::int as n from names where holder = $1 group by holder",
    [scaleHolder(seed, 7)],
  );
  const big = await client.query<{ n: number }>("select count(*)::int as n from names where holder = $1", [
    bigHolder,
  ]);
  log(`big holder: ${big.rows[0]?.n} names; small holder: ${small.rows[0]?.n} names`);
  const position = async (fraction: number) =>
    (
      await client.query<{ id: string }>("select id from events order by id offset $1 limit 1", [
        Math.floor(fraction * (events - 1)),
      ])
    ).rows[0]?.id as string;
  const deep = encodeCursor(await position(0.99), {});
  const last = encodeCursor(await position(1 - 50 / events), {});
  // Lookup terms from real labels: a label's first two syllables (a prefix thousands of names share), its last
  // syllable and the first digit (a substring thousands share, never a prefix), the label from its second syllable
  // on (a substring of that label and few others).
  const labels = sample.slice(0, 50).map((r) => r.label);
  const prefixTerms = labels.map((l) => l.slice(0, 4));
  const commonTerms = labels.map((l) => l.replace(/^[a-z]{4}([a-z]{2}\d).*$/, "$1"));
  const rareTerms = labels.map((l) => l.slice(2));

  const { child, base } = await startApi();
  const routes: Record<string, Latency> = {};
  const measure = async (name: string, paths: readonly string[], count = requests) => {
    routes[name] = await getAll(base, paths, count, concurrency);
    const r = routes[name];
    log(`${name}: p50 ${r.p50.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms (max ${r.max.toFixed(1)})`);
  };

  // Warm up PostgreSQL's and the API's caches on what the hot run asks, unmeasured.
  await getAll(base, hot, hot.length * 2, concurrency);
  // The API's own floor on this machine now: what every route's figure includes before any query.
  await measure("/health (the API's floor)", ["/health"]);
  await measure("resolve hot (cached, 500 names)", hot);
  await measure("resolve cold (each name once)", cold);
  routes["raw pg point read (baseline)"] = await timed(rawNodes.length, concurrency, async (i) => {
    await client.query("select * from names where node = $1", [rawNodes[i]]);
  });
  await measure(
    "lookup prefix (4 letters)",
    prefixTerms.map((t) => `/v1/lookup?q=${t}`),
  );
  await measure(
    "lookup common substring (3)",
    commonTerms.map((t) => `/v1/lookup?q=${t}`),
  );
  await measure(
    "lookup rare substring",
    rareTerms.map((t) => `/v1/lookup?q=${t}`),
  );
  await measure("directory namespaces", ["/v1/directory/namespaces"]);
  await measure("directory reverse, big holder", [`/v1/directory/reverse/${bigHolder}`]);
  await measure("directory reverse, small holder", [`/v1/directory/reverse/${small.rows[0]?.holder}`]);
  await measure("by-holder, big holder", [`/v1/names/by-holder/${bigHolder}`]);
  await measure("by-holder, small holder", [`/v1/names/by-holder/${small.rows[0]?.holder}`]);
  await measure("events first page (100)", ["/v1/events?limit=100"]);
  await measure("events page at 99% (100)", [`/v1/events?limit=100&cursor=${deep}`]);
  await measure("events last page (50)", [`/v1/events?limit=100&cursor=${last}`]);
  await measure("events of bigco at 99% (100)", [
    `/v1/events?limit=100&namespace=bigco&cursor=${encodeCursor(await position(0.99), { namespace: "bigco" })}`,
  ]);
  const rss = rssMiB(child.pid);
  log(`API RSS ${rss.toFixed(0)} MiB`);

  const database = await openDatabase({ url });
  const dbMs = await databaseTimes(
    database.replica,
    async (sql, params) => {
      const { rows } = await client.query(`explain (analyze, format json) ${sql}`, params);
      return Number(rows[0]?.["QUERY PLAN"]?.[0]?.["Execution Time"]);
    },
    {
      nodes: rawNodes,
      prefixTerms,
      commonTerms,
      rareTerms,
      bigHolder,
      smallHolder: small.rows[0]?.holder as string,
      deep: await position(0.99),
      last: await position(1 - 50 / events),
      nowSeconds: now,
    },
  );
  await database.close();
  for (const [name, ms] of Object.entries(dbMs)) log(`${name}: ${ms.toFixed(2)} ms in PostgreSQL`);

  const { rows: sizes } = await client.query<{ relname: string; bytes: string }>(
    `select relname, pg_total_relation_size(c.oid)::text as bytes from pg_class c
     join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind = 'r' order by pg_total_relation_size(c.oid) desc limit 10`,
  );
  const tables = Object.fromEntries(sizes.map((r) => [r.relname, Number(r.bytes)]));
  const result: Result = {
    names,
    events,
    date: new Date().toISOString(),
    loadAverage: load,
    seedSeconds,
    routes,
    dbMs,
    rssMiB: rss,
    tables,
  };
  const out = values.out ?? new URL(`./results/${names}.json`, import.meta.url).pathname;
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  log(`wrote ${out}`);
  report(result, values.compare === undefined ? undefined : readResult(values.compare));
} finally {
  for (const child of children) child.kill("SIGTERM");
  await client.end();
}

function readResult(path: string): Result {
  return JSON.parse(readFileSync(path, "utf8")) as Result;
}

function report(now: Result, before: Result | undefined): void {
  const ratio = (a: number, b: number | undefined) =>
    b === undefined || b === 0 ? "–" : `${(a / b).toFixed(2)}×`;
  const ms = (x: number | undefined) => (x === undefined ? "–" : x.toFixed(2));
  const m = (r: Result) => `${r.names / 1e6}M`;
  const b = before;
  console.log(
    `\n| route | HTTP p50 / p95 ms, ${m(now)} |${b ? ` ${m(b)} | growth p50 / p95 |` : ""} in PostgreSQL ms, ${m(now)} |${b ? ` ${m(b)} | growth |` : ""}`,
  );
  for (const [name, r] of Object.entries(now.routes)) {
    const then = b?.routes[name];
    const http = b
      ? ` ${then ? `${ms(then.p50)} / ${ms(then.p95)}` : "–"} | ${ratio(r.p50, then?.p50)} / ${ratio(r.p95, then?.p95)} |`
      : "";
    const key = name === "resolve cold (each name once)" ? "resolve cold (the miss's read)" : name;
    const db = now.dbMs?.[key];
    const dbThen = b?.dbMs?.[key];
    console.log(
      `| ${name} | ${ms(r.p50)} / ${ms(r.p95)} |${http} ${ms(db)} |${b ? ` ${ms(dbThen)} | ${db === undefined ? "–" : ratio(db, dbThen)} |` : ""}`,
    );
  }
  console.log(
    `| API RSS (MiB) | ${now.rssMiB.toFixed(0)} |${b ? ` ${b.rssMiB.toFixed(0)} | ${ratio(now.rssMiB, b.rssMiB)} |` : ""}`,
  );
  console.log(
    `\n| table | size | per million rows of its kind |${b ? ` ${m(b)} per million | growth of the size |` : ""}`,
  );
  const perMillion = (r: Result, table: string, bytes: number) =>
    ((bytes / (table === "events" || table === "name_history" ? r.events : r.names)) * 1e6) / 2 ** 20;
  for (const [table, bytes] of Object.entries(now.tables)) {
    if (bytes < 2 ** 20) continue;
    const thenBytes = b?.tables[table];
    console.log(
      `| ${table} | ${(bytes / 2 ** 20).toFixed(0)} MiB | ${perMillion(now, table, bytes).toFixed(0)} MiB |${b && thenBytes !== undefined ? ` ${perMillion(b, table, thenBytes).toFixed(0)} MiB | ${ratio(bytes, thenBytes)} |` : ""}`,
    );
  }
}
