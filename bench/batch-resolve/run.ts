// POST /v1/resolve (issue 36): 100 names in one batch against the same 100 names as 100 single
// `GET /v1/resolve/{namespace}/{label}` requests, in the same run, on the real app over a database of N seeded
// names. Two cases: warm (every answer cached: what a wallet's list costs once the names are known) and cold
// (names never asked before: every answer a miss; the batch's misses are one statement). Singles go one after
// another and 6 at a time (a browser's connections per host), over Node's fetch (keep-alive). Rounds
// alternate the forms; the figure is the median of the rounds, printed as single ÷ batch (how many times faster
// the batch is), beside the CPU time this process (client and server: everything runs here) spent per form.
//   npx node bench/batch-resolve/run.ts [--names=20000] [--rounds=15] [--db=pglite|postgres]
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { nameNode } from "@namereg/protocol";
import { buildApp } from "@namereg/server";
import { createTestDatabase, testConfig } from "@namereg/server/testing";

const { values } = parseArgs({
  options: {
    names: { type: "string", default: "20000" },
    rounds: { type: "string", default: "15" },
    db: { type: "string", default: "pglite" },
  },
});
const total = Number(values.names);
const rounds = Number(values.rounds);
const BATCH = 100;
if (total < BATCH * (rounds * 3 + 1)) throw new Error(`--names must be at least ${BATCH * (rounds * 3 + 1)}`);

const HOLDER = "GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7";
const database = await createTestDatabase(values.db === "postgres" ? "postgres" : "pglite");
await database.query(
  `insert into namespaces (node, label, owner, registrar, method, allocated_ledger, tx_hash)
   values (repeat('f', 64), 'bench', $1, 'CREGISTRAR', 'reserved', 1, repeat('0', 64))`,
  [HOLDER],
);
// The mirror's rows are keyed by node: seeded with the protocol's own hash.
const labels = Array.from({ length: total }, (_, i) => `n${i}`);
for (let i = 0; i < total; i += 5000) {
  const slice = labels.slice(i, i + 5000);
  await database.query(
    `insert into names (node, namespace, label, holder, address, expires_at, generation, active,
                        issued_ledger, issued_at, tx_hash, updated_ledger)
     select node, 'bench', label, $3, $3, null, 1, true, 100, now(), repeat('a', 64), 100
     from unnest($1::text[], $2::text[]) as t(node, label)`,
    [slice.map((l) => nameNode(l, "bench")), slice, HOLDER],
  );
}
const app = await buildApp({
  config: testConfig({ RATE_LIMIT_PER_MINUTE: "1000000000" }),
  db: database,
  redis: null,
});
const base = await app.listen({ port: 0, host: "127.0.0.1" });

const namesOf = (slot: number) => labels.slice(slot * BATCH, (slot + 1) * BATCH);

/** Requests retried because the server had closed an idle keep-alive connection as it was reused (a race). */
let retried = 0;
async function request(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== "ECONNRESET") throw error;
    retried++;
    return fetch(url, init);
  }
}

async function batch(list: readonly string[]): Promise<void> {
  const response = await request(`${base}/v1/resolve`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ names: list.map((l) => `${l}.bench`) }),
  });
  const body = (await response.json()) as { results: { account?: string }[] };
  if (response.status !== 200 || body.results.some((r) => r.account !== HOLDER)) throw new Error("bad batch");
}

async function single(label: string): Promise<void> {
  const response = await request(`${base}/v1/resolve/bench/${label}`);
  const body = (await response.json()) as { account?: string };
  if (response.status !== 200 || body.account !== HOLDER) throw new Error(`bad answer for ${label}`);
}

async function singles(list: readonly string[], concurrency: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < list.length) await single(list[next++] as string);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

type Form = "batch" | "single ×1" | "single ×6";
const run = (form: Form, list: readonly string[]) =>
  form === "batch" ? batch(list) : singles(list, form === "single ×1" ? 1 : 6);

async function timed(form: Form, list: readonly string[]): Promise<{ ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await run(form, list);
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

const FORMS: Form[] = ["batch", "single ×1", "single ×6"];
const figures: Record<"warm" | "cold", Record<Form, { ms: number[]; cpuMs: number[] }>> = {
  warm: Object.fromEntries(FORMS.map((f) => [f, { ms: [], cpuMs: [] }])) as never,
  cold: Object.fromEntries(FORMS.map((f) => [f, { ms: [], cpuMs: [] }])) as never,
};
const loads = [loadavg()[0] ?? 0];
// Warm-up: the statements prepared, the connections open, the JIT warm; slot 0 stays cached for the warm case.
for (const form of FORMS) await run(form, namesOf(0));
let slot = 1;
for (let r = 0; r < rounds; r++) {
  // Alternate which form goes first, so neither always meets the machine in the same state.
  const order = r % 2 === 0 ? FORMS : [...FORMS].reverse();
  for (const form of order) {
    const warm = await timed(form, namesOf(0));
    figures.warm[form].ms.push(warm.ms);
    figures.warm[form].cpuMs.push(warm.cpuMs);
    const cold = await timed(form, namesOf(slot++));
    figures.cold[form].ms.push(cold.ms);
    figures.cold[form].cpuMs.push(cold.cpuMs);
  }
}
loads.push(loadavg()[0] ?? 0);

console.log(`batch resolve: ${BATCH} names, ${total} seeded on ${values.db}, ${rounds} rounds`);
for (const kase of ["warm", "cold"] as const) {
  const b = figures[kase].batch;
  console.log(
    `\n${kase} (${kase === "warm" ? "every answer cached" : "every name a miss"}), median of rounds:`,
  );
  for (const form of FORMS) {
    const f = figures[kase][form];
    const ms = median(f.ms);
    const cpu = median(f.cpuMs);
    const ratio =
      form === "batch"
        ? ""
        : `  → batch ${(ms / median(b.ms)).toFixed(1)}× faster, ${(cpu / median(b.cpuMs)).toFixed(1)}× less CPU`;
    console.log(
      `  ${form.padEnd(10)} ${ms.toFixed(1).padStart(8)} ms  CPU ${cpu.toFixed(1).padStart(7)} ms${ratio}`,
    );
  }
}
console.log(
  `\nload average ${loads.map((l) => l.toFixed(1)).join(" → ")}; ${retried} requests retried after a reset`,
);
await app.close();
await database.close();
