// Measures the bulk event path (not a test): appends 1,000,000 synthetic events in ledgers of 5,000 with
// pre-encoded XDR, then pages through them with getEvents at limit 10,000 over HTTP.
// Run: npx node bench/devnet-bulk/synthetic.ts [events] [perLedger]

import { type SyntheticEvent, startDevnet } from "@namereg/devnet";
import { StrKey, xdr } from "@stellar/stellar-sdk";

const total = Number(process.argv[2] ?? 1_000_000);
const perLedger = Number(process.argv[3] ?? 5_000);
const ledgers = Math.ceil(total / perLedger);

const devnet = await startDevnet({
  closeIntervalMs: 0,
  retentionLedgers: ledgers + 10,
  genesisCloseTime: 1_700_000_000,
});
const contractId = StrKey.encodeContract(Buffer.alloc(32, 3));
const name = xdr.ScVal.scvSymbol("name_v1").toXdr("base64");
const nodes = Array.from({ length: 1024 }, (_, i) =>
  xdr.ScVal.scvBytes(Buffer.alloc(32, i % 256)).toXdr("base64"),
);
const value = xdr.ScVal.scvMap([
  new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol("action"), val: xdr.ScVal.scvSymbol("issue") }),
  new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol("label"), val: xdr.ScVal.scvBytes(Buffer.from("alice")) }),
]).toXdr("base64");

let started = performance.now();
let appended = 0;
for (let l = 0; l < ledgers; l++) {
  const count = Math.min(perLedger, total - appended);
  const events: SyntheticEvent[] = new Array(count);
  for (let i = 0; i < count; i++) {
    events[i] = { contractId, topics: [name, nodes[(appended + i) % nodes.length] as string], value };
  }
  devnet.chain.appendSyntheticLedger(events, { closeTime: 1_700_000_000 + l });
  appended += count;
}
const appendMs = performance.now() - started;
console.log(
  `appended ${appended} events in ${ledgers} ledgers: ${appendMs.toFixed(0)} ms (${Math.round((appended / appendMs) * 1000)} events/s)`,
);
console.log(`heap used: ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`);

async function getEvents(params: Record<string, unknown>) {
  const res = await fetch(devnet.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getEvents", params }),
  });
  const body = (await res.json()) as { result: { events: unknown[]; cursor: string; latestLedger: number } };
  return body.result;
}

started = performance.now();
let page = await getEvents({
  startLedger: 2,
  filters: [{ contractIds: [contractId] }],
  pagination: { limit: 10_000 },
});
let seen = page.events.length;
let pages = 1;
let slowest = 0;
while (BigInt(page.cursor.split("-")[0] ?? "0") >> 32n < BigInt(page.latestLedger)) {
  const t = performance.now();
  page = await getEvents({
    filters: [{ contractIds: [contractId] }],
    pagination: { cursor: page.cursor, limit: 10_000 },
  });
  slowest = Math.max(slowest, performance.now() - t);
  seen += page.events.length;
  pages++;
}
const pageMs = performance.now() - started;
console.log(
  `paged ${seen} events in ${pages} pages: ${pageMs.toFixed(0)} ms total, ${(pageMs / pages).toFixed(1)} ms/page, slowest ${slowest.toFixed(1)} ms`,
);
await devnet.stop();
