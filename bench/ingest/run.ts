// Ingest benchmark: back-fills N bulk events from a devnet RPC (its own process, as a real RPC is) into a
// database with the real indexer, and prints events/s beside the baseline measured in the same run: fetching
// the same pages and XDR-decoding every event without touching the database.
//   node bench/ingest/run.ts [events=200000] [postgres|pglite] [index,index,…]
// The optional third argument drops those indexes before the back-fill, to measure what each costs on the write
// path (bench/README.md carries the table); the PostgreSQL floor below is measured without them too.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ContractReader, decodeRawEvent, fetchBatch, Indexer, RpcClient } from "@namereg/server";
import { createTestDatabase, runUntilIdle } from "@namereg/server/testing";
import pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { cpuSeconds } from "../lib/cpu.ts";

/**
 * PostgreSQL's own floor for what the back-fill wrote: every row of the tables the indexer filled, read out of
 * `source` and written by one COPY a table into a fresh, migrated database (its indexes and triggers in place),
 * measured as the CPU of that database's backends and the server's writers. No write path can spend less
 * PostgreSQL CPU on the same rows and indexes, so this bounds what a faster indexer could reach.
 */
async function postgresFloor(
  source: Awaited<ReturnType<typeof createTestDatabase>>,
  dropped: readonly string[],
): Promise<{ cpu: number; rows: number; byTable: { table: string; rows: number; cpu: number }[] }> {
  const skipped = new Set([
    "name_trigrams",
    "indexer_state",
    "streams",
    "writer_fence",
    "meta",
    "chain_identity",
    "tracked_contracts",
    "change_outbox_state",
  ]);
  const names = await source.query<{ table: string }>(
    "select tablename as table from pg_tables where schemaname = 'public'",
  );
  const counts: { table: string; n: number }[] = [];
  for (const { table } of names) {
    if (skipped.has(table)) continue;
    const [count] = await source.query<{ n: string }>(`select count(*) as n from ${table}`);
    if (Number(count?.n ?? 0) > 0) counts.push({ table, n: Number(count?.n) });
  }
  // Parents before children (foreign keys): namespaces before names, names before what hangs off them.
  const order = ["namespaces", "events", "names"];
  const tables = counts
    .map((c) => c.table)
    .sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99) || a.localeCompare(b));
  const dumps = new Map<string, Buffer>();
  const reader = new pg.Client({ connectionString: source.url });
  await reader.connect();
  for (const table of tables) {
    const chunks: Buffer[] = [];
    await pipeline(
      reader.query(copyTo(`copy ${table} to stdout`)),
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          chunks.push(chunk);
          done();
        },
      }),
    );
    dumps.set(table, Buffer.concat(chunks));
  }
  await reader.end();
  let rows = 0;
  for (const c of counts) rows += c.n;
  const target = await createTestDatabase("postgres");
  try {
    for (const name of dropped) await target.query(`drop index ${name}`);
    const writer = new pg.Client({ connectionString: target.url });
    await writer.connect();
    const pids = (
      await target.query<{ pid: number }>(
        "select pid from pg_stat_activity where datname = current_database() or backend_type in ('walwriter', 'checkpointer', 'background writer')",
      )
    ).map((r) => r.pid);
    const used = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    const start = used();
    const byTable: { table: string; rows: number; cpu: number }[] = [];
    await writer.query("begin");
    for (const table of tables) {
      const before = used();
      await pipeline(
        Readable.from([dumps.get(table) as Buffer]),
        writer.query(copyFrom(`copy ${table} from stdin`)),
      );
      byTable.push({ table, rows: counts.find((c) => c.table === table)?.n ?? 0, cpu: used() - before });
    }
    await writer.query("commit");
    const cpu = used() - start;
    await writer.end();
    return { cpu, rows, byTable };
  } finally {
    await target.close();
  }
}

const total = Number(process.argv[2] ?? 200_000);
const kind = (process.argv[3] ?? "postgres") as "postgres" | "pglite";
const dropped = (process.argv[4] ?? "").split(",").filter((name) => /^[a-z_]+$/.test(name));
const port = 8700 + Math.floor(Math.random() * 200);

const devnet = spawn(
  process.execPath,
  [
    new URL("../../packages/server/src/cli.ts", import.meta.url).pathname,
    "devnet",
    "--scenario=bulk",
    `--bulk-events=${total}`,
    "--bulk-namespaces=4",
    "--close-interval-ms=0",
    `--port=${port}`,
  ],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const banner = await new Promise<string>((resolve, reject) => {
  let out = "";
  devnet.stdout.on("data", (c: Buffer) => {
    out += c.toString();
    if (/registrar C\w+\s*$/.test(out) && out.split("registrar C").length - 1 === 4) resolve(out);
  });
  devnet.once("exit", (code) => reject(new Error(`devnet exited with ${code}`)));
});
const field = (name: string) => new RegExp(`${name}\\s+(\\S.*)`).exec(banner)?.[1]?.trim() ?? "";
const rpcUrl = field("RPC URL");
const passphrase = field("network passphrase");
const deployment = Number(field("deployment ledger"));
const registrars = [...banner.matchAll(/registrar (C\w+)/g)].map((m) => m[1] as string);
try {
  // Baseline: the same pages, fetched and decoded, nothing stored.
  const rpc = new RpcClient(rpcUrl);
  const latest = (await rpc.getLatestLedger()).sequence;
  const baselineSelf = process.cpuUsage();
  const baselineDevnet = cpuSeconds(devnet.pid ?? 0);
  let t = performance.now();
  let decoded = 0;
  let position = { nextLedger: deployment, cursor: null as string | null };
  while (position.nextLedger <= latest) {
    const batch = await fetchBatch(rpc, registrars, position);
    for (const e of batch.events) decodeRawEvent(e);
    decoded += batch.events.length;
    position = batch.next;
  }
  const baseline = decoded / ((performance.now() - t) / 1000);
  const baselineCpu = process.cpuUsage(baselineSelf);
  const baselineDevnetCpu = cpuSeconds(devnet.pid ?? 0) - baselineDevnet;

  const database = await createTestDatabase(kind);
  for (const name of dropped) await database.query(`drop index ${name}`);
  const indexer = new Indexer({
    db: database.db,
    rpc,
    reader: new ContractReader(rpcUrl, passphrase),
    core: ["registry", "allocator", "lookup", "primary"].map((role) => ({
      role: role as "registry",
      contractId: field(role),
      startLedger: deployment,
    })),
    registryId: field("registry"),
    pollMs: 10,
    concurrency: kind === "postgres" ? Number(process.env.INGEST_CONCURRENCY ?? 2) : 1,
  });
  await indexer.init();
  // PostgreSQL's share: this database's backends plus the WAL writer, checkpointer and background writer,
  // whose work the writes cause (other databases on the server are someone else's).
  const pgPids = async () =>
    (
      await database.query<{ pid: number }>(
        "select pid from pg_stat_activity where datname = current_database() or backend_type in ('walwriter', 'checkpointer', 'background writer')",
      )
    ).map((r) => r.pid);
  const cpuOf = (pids: readonly number[]) => new Map(pids.map((pid) => [pid, cpuSeconds(pid)]));
  const pgBefore = kind === "postgres" ? cpuOf(await pgPids()) : new Map<number, number>();
  const selfBefore = process.cpuUsage();
  const devnetBefore = cpuSeconds(devnet.pid ?? 0);
  t = performance.now();
  await runUntilIdle(indexer, 100_000);
  const seconds = (performance.now() - t) / 1000;
  const self = process.cpuUsage(selfBefore);
  const selfCpu = (self.user + self.system) / 1e6;
  const devnetCpu = cpuSeconds(devnet.pid ?? 0) - devnetBefore;
  let pgCpu = 0;
  if (kind === "postgres") {
    for (const [pid, cpu] of cpuOf(await pgPids())) pgCpu += cpu - (pgBefore.get(pid) ?? 0);
  }
  const [row] = await database.query<{ n: string }>("select count(*) as n from events");
  const archived = Number(row?.n ?? 0);
  const floor = kind === "postgres" ? await postgresFloor(database, dropped) : null;
  await database.close();

  const rate = archived / seconds;
  console.log(`database                ${kind}${dropped.length > 0 ? ` without ${dropped.join(", ")}` : ""}`);
  console.log(
    `events archived         ${archived} in ${seconds.toFixed(1)} s → ${Math.round(rate)} events/s`,
  );
  console.log(`baseline fetch+decode   ${decoded} events → ${Math.round(baseline)} events/s`);
  // CPU per event, to tell which process to shrink when the cores are saturated.
  const perEvent = (cpu: number, n = archived) => `${((cpu / n) * 1e6).toFixed(1)} µs/event`;
  console.log(
    `ingest CPU              indexer ${perEvent(selfCpu)}${kind === "postgres" ? `, postgres ${perEvent(pgCpu)}` : " (PGlite included)"}, devnet ${perEvent(devnetCpu)}`,
  );
  if (kind === "postgres")
    console.log(
      `ingest CPU, together    indexer + postgres ${perEvent(selfCpu + pgCpu)}  (budget: ≤ 50 µs/event)`,
    );
  console.log(
    `baseline CPU            fetch+decode ${perEvent((baselineCpu.user + baselineCpu.system) / 1e6, decoded)}, devnet ${perEvent(baselineDevnetCpu, decoded)}`,
  );
  console.log(`ratio ingest/baseline   ${(rate / baseline).toFixed(2)}  (budget: ≥ 0.60)`);
  if (floor !== null) {
    console.log(
      `postgres floor          ${perEvent(floor.cpu)}: the ${floor.rows.toLocaleString("en-US")} rows this back-fill wrote, COPYed into an empty schema (indexes and triggers in place), one statement a table, no indexer`,
    );
    for (const t of floor.byTable)
      console.log(
        `  ${t.table.padEnd(22)}${t.rows.toLocaleString("en-US").padStart(9)} rows  ${perEvent(t.cpu)}${t.table === "names" ? " (with name_trigrams, filled by its trigger)" : ""}`,
      );
  }
} finally {
  devnet.kill("SIGTERM");
}
