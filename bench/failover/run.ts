// Failover suite: `npx node bench/failover/run.ts [--before 5] [--after 5] [--readers 4] [--port 18300]`. A
// PostgreSQL leader lost under Patroni + etcd + HAProxy while a wallet writes and clients read (suite.ts). Prints
// the figures and exits 1 on any failure.
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { runFailoverSuite } from "./suite.ts";

const { values } = parseArgs({
  options: {
    before: { type: "string", default: "5" },
    after: { type: "string", default: "5" },
    readers: { type: "string", default: "4" },
    port: { type: "string", default: "18300" },
  },
});
const started = performance.now();
const elapsed = () => ((performance.now() - started) / 1000).toFixed(1).padStart(5);
const loads = [loadavg()[0] ?? 0];
const r = await runFailoverSuite({
  beforeSeconds: Number(values.before),
  afterSeconds: Number(values.after),
  readers: Number(values.readers),
  apiPort: Number(values.port),
  log: (line) => {
    loads.push(loadavg()[0] ?? 0);
    console.log(`[${elapsed()} s] ${line}`);
  },
});
const s = (x: number | null) => (x === null ? "never" : `${x.toFixed(2)} s`);
console.log(
  `leader lost       ${r.killed}; new leader ${r.newLeader ?? "none"} after ${s(r.newLeaderSeconds)}`,
);
console.log(`indexing resumed  ${s(r.resumedSeconds)} after the new leader (bound 10 s)`);
console.log(
  `old leader        rejoined as ${r.rejoinedAs ?? "nothing"} ${s(r.rejoinSeconds)} after its restart`,
);
console.log(
  `changes           ${r.written} written; archived once ${r.archivedOnce}, more than once ${r.archivedTwice}`,
);
console.log(
  `stream            ${r.streamReceived}/${r.written} changes, ${r.streamDuplicates} duplicate ids, ${r.streamConnections} connections`,
);
console.log(
  `webhooks          ${r.webhookIds} ids for ${r.written} changes, ${r.webhookDuplicates} repeated deliveries`,
);
for (const [path, byStatus] of Object.entries(r.routes))
  console.log(`reads ${path.padEnd(24)} ${JSON.stringify(byStatus)}`);
console.log(`stale resolves    ${r.staleAnswers} answered with the last answer while the database was away`);
console.log(`503s seen during  ${r.unavailableSeconds} s; bad answers ${r.bad.length}`);
console.log(`status at the end ${JSON.stringify(r.finalStatus)}`);
console.log(`load average      ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`);
for (const f of r.failures) console.log(`FAILURE: ${f}`);
console.log(`${r.ok ? "OK" : "FAILED"} in ${elapsed().trim()} s`);
if (!r.ok) process.exitCode = 1;
