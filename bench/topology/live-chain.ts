// The topology suite's chain (suite.ts): the shape of its bulk history, and the live events that keep coming for
// the rest of the run.
import { bulkHolder, type NamingDevnet, type SyntheticEvent } from "@namereg/devnet";
import { encodeEvent, nameNode } from "@namereg/protocol";

export const NAMESPACES = 4;
/** Bulk holders: name `n<i>` is held by `bulkHolder(i % HOLDERS)`. */
export const HOLDERS = 200;

/** Appends a ledger of 1–12 `name_v1` issues every 100 ms; `stop()` returns how many events it appended. */
export function liveProducer(devnet: NamingDevnet, rand: () => number): { stop(): number } {
  const namespaces = devnet.bulk?.namespaces ?? [];
  let appended = 0;
  let label = 0;
  const tick = () => {
    const n = 1 + Math.floor(rand() * 12);
    const batch: SyntheticEvent[] = [];
    for (let i = 0; i < n; i++) {
      const ns = namespaces[label % namespaces.length];
      if (ns === undefined) throw new Error("the bulk scenario has no namespaces");
      const name = `live${label++}`;
      const holder = bulkHolder(label % 200).publicKey();
      const { topics, data } = encodeEvent({
        type: "name_v1",
        node: nameNode(name, ns.label),
        generation: 1n,
        data: { label: name, action: "issue", holder, address: holder, expiresAt: 0n },
      });
      batch.push({ contractId: ns.registrar, topics, value: data });
    }
    devnet.chain.appendSyntheticLedger(batch);
    appended += n;
  };
  const timer = setInterval(tick, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return appended;
    },
  };
}
