// Bulk devnet benchmark: generates N events with the bulk scenario and pages through them with getEvents
// (limit 10,000, through the unchanged SDK). Baseline, measured in the same run: encoding the same kind of
// event with the protocol's reference codec, which is what generation would cost without the fast encoder.
//   node bench/devnet-bulk/run.ts [events=1000000]

import { bulkHolder, startNamingDevnet } from "@namereg/devnet";
import { childNode, encodeEvent, namespaceNode } from "@namereg/protocol";
import { rpc } from "@stellar/stellar-sdk";

const events = Number(process.argv[2] ?? 1_000_000);

function referenceRate(sample: number): number {
  const ns = namespaceNode("bulk0");
  const holder = bulkHolder(0).publicKey();
  const t = performance.now();
  for (let i = 0; i < sample; i++) {
    const label = `n${i}`;
    const e = encodeEvent({
      type: "name_v1",
      node: childNode(ns, label),
      generation: 1n,
      data: { label, action: "issue", holder, address: holder, expiresAt: 0n },
    });
    for (const topic of e.topics) topic.toXdr("base64");
    e.data.toXdr("base64");
  }
  return sample / ((performance.now() - t) / 1000);
}

const baseline = referenceRate(20_000);
const devnet = await startNamingDevnet({ scenario: "bulk", closeIntervalMs: 0, bulk: { events } });
const bulk = devnet.bulk;
if (bulk === undefined) throw new Error("bulk scenario did not run");
const generationRate = bulk.events / bulk.seconds;

const server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
const filters = [
  { type: "contract" as const, contractIds: bulk.namespaces.map((n) => n.registrar).slice(0, 5) },
];
const t = performance.now();
let seen = 0;
let pages = 0;
let page = await server.getEvents({ startLedger: bulk.firstLedger, filters, limit: 10_000 });
for (;;) {
  pages++;
  seen += page.events.length;
  const cursorLedger = Number(BigInt(page.cursor.split("-")[0] ?? "0") >> 32n);
  if (page.events.length < 10_000 && cursorLedger >= page.latestLedger) break;
  page = await server.getEvents({ cursor: page.cursor, filters, limit: 10_000 });
}
const pagingSeconds = (performance.now() - t) / 1000;
await devnet.stop();

console.log(
  `events generated        ${bulk.events} in ${bulk.seconds.toFixed(2)} s (${Math.round(generationRate)} events/s)`,
);
console.log(
  `baseline (ref. codec)   ${Math.round(baseline)} events/s → ${(bulk.events / baseline).toFixed(1)} s for the same count`,
);
console.log(`ratio generation/ref    ${(generationRate / baseline).toFixed(1)}×`);
console.log(
  `getEvents paging        ${seen} events of the first 5 registrars in ${pages} pages, ${pagingSeconds.toFixed(1)} s (${Math.round(seen / pagingSeconds)} events/s, ${((pagingSeconds / pages) * 1000).toFixed(0)} ms/page)`,
);
