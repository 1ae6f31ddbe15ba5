// The changes of the topology suite's freshness check (freshness.ts), one at a time: a bulk name transferred to a
// new holder or a new name issued, the ledger that carries it, each route's path for it, and each route's answer
// judged exactly: the old one (before the change), the new one, or neither.
import { bulkHolder } from "@namereg/devnet";
import { encodeEvent, nameNode } from "@namereg/protocol";
import { Keypair } from "@stellar/stellar-sdk";
import type { Answer } from "./http-client.ts";

export const ROUTES = ["resolve", "name", "by-holder", "history"] as const;
export type RouteName = (typeof ROUTES)[number];

export interface Change {
  kind: "transfer" | "issue";
  namespace: string;
  label: string;
  node: string;
  newHolder: string;
  oldHolder: string | null;
}

export type Verdict = "old" | "new" | "bad";

/** Even changes transfer a bulk name not changed before to a new holder; odd ones issue a new name. */
export function pickChange(
  k: number,
  namespaces: readonly { label: string }[],
  used: Set<number>,
  o: { rand: () => number; names: number; holders: number },
): Change {
  const newHolder = Keypair.fromRawEd25519Seed(
    Buffer.from(Array.from({ length: 32 }, () => Math.floor(o.rand() * 256))),
  ).publicKey();
  if (k % 2 === 0) {
    let i = Math.floor(o.rand() * o.names);
    while (used.has(i)) i = (i + 1) % o.names;
    used.add(i);
    const namespace = namespaces[i % namespaces.length]?.label ?? "bulk0";
    const label = `n${i}`;
    return {
      kind: "transfer",
      namespace,
      label,
      node: nameNode(label, namespace),
      newHolder,
      oldHolder: bulkHolder(i % o.holders).publicKey(),
    };
  }
  const namespace = namespaces[k % namespaces.length]?.label ?? "bulk0";
  const label = `fresh${k}`;
  return { kind: "issue", namespace, label, node: nameNode(label, namespace), newHolder, oldHolder: null };
}

export function transferOrIssue(change: Change, registrar: string) {
  const { topics, data } = encodeEvent({
    type: "name_v1",
    node: change.node,
    generation: 1n,
    data: {
      label: change.label,
      action: change.kind,
      holder: change.newHolder,
      address: change.newHolder,
      expiresAt: 0n,
    },
  });
  return { contractId: registrar, topics, value: data };
}

export function pathOf(route: RouteName, c: Change): string {
  switch (route) {
    case "resolve":
      return `/v1/resolve/${c.namespace}/${c.label}`;
    case "name":
      return `/v1/names/${c.namespace}/${c.label}`;
    case "by-holder":
      return `/v1/names/by-holder/${c.newHolder}`;
    case "history":
      return `/v1/names/${c.namespace}/${c.label}/history`;
  }
}

/** The old answer, the new one, or neither: each route's answer before and after the change, exactly. */
export function judge(route: RouteName, c: Change, a: Answer): { verdict: Verdict; what: string } {
  const what = `${a.status} ${a.error ?? a.body.slice(0, 160)}`;
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(a.body) as Record<string, unknown>;
  } catch {
    return { verdict: "bad", what };
  }
  const name = `${c.label}.${c.namespace}`;
  const verdict = ((): Verdict => {
    switch (route) {
      case "resolve":
        if (a.status === 200 && body.account === c.newHolder) return "new";
        if (c.kind === "transfer" && a.status === 200 && body.account === c.oldHolder) return "old";
        if (c.kind === "issue" && a.status === 404 && body.error === "name_not_found") return "old";
        return "bad";
      case "name":
        if (a.status === 200 && body.holder === c.newHolder) return "new";
        if (c.kind === "transfer" && a.status === 200 && body.holder === c.oldHolder) return "old";
        if (c.kind === "issue" && a.status === 404 && body.error === "name_not_issued") return "old";
        return "bad";
      case "by-holder": {
        if (a.status !== 200 || !Array.isArray(body.names)) return "bad";
        const names = body.names as { name?: unknown }[];
        if (names.some((n) => n.name === name)) return "new";
        return names.length === 0 ? "old" : "bad";
      }
      case "history": {
        const actions = Array.isArray(body.events)
          ? (body.events as { action?: unknown }[]).map((e) => e.action)
          : [];
        if (c.kind === "transfer") {
          if (a.status !== 200) return "bad";
          if (actions.includes("transferred")) return "new";
          return actions.length === 1 && actions[0] === "issued" ? "old" : "bad";
        }
        if (a.status === 200 && actions.length === 1 && actions[0] === "issued") return "new";
        return a.status === 404 ? "old" : "bad";
      }
    }
  })();
  return { verdict, what };
}
