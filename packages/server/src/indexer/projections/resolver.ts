// Resolver events: a name's records (address, text keys, payment, chain addresses), display names and the
// namespace's chain policy. A newer generation starts the records afresh.
import type { EventsOf } from "@namereg/protocol";
import type { ArchiveRow } from "../decode.ts";
import type { ResolverRow, TrackedRow, WorkingSet } from "../working-set.ts";
import { needNamespace, type Projection, type ProjectionContext } from "./context.ts";

type ResolverEvent = EventsOf<"resolver">;

export const resolver: Projection<"resolver"> = {
  keys(event, keys) {
    if (event.type !== "chn_pol") keys.resolver.add(event.node);
  },
  apply: (ctx, event, row, emitter) => projectResolver(ctx, event, row, emitter),
};

function resolverRow(ws: WorkingSet, node: string, generation: bigint, ledger: number): ResolverRow {
  const current = ws.resolver.get(node);
  // A newer generation is a new issuance: records of the previous holder no longer apply.
  if (current !== null && current.generation >= generation) return { ...current, updatedLedger: ledger };
  return {
    node,
    generation,
    address: null,
    paymentAddress: null,
    paymentMemo: null,
    textKeys: [],
    chainNetworks: [],
    displayFor: current?.displayFor ?? null,
    updatedLedger: ledger,
  };
}

function projectResolver(
  ctx: ProjectionContext,
  event: ResolverEvent,
  row: ArchiveRow,
  emitter: TrackedRow,
): string | null {
  const { ws } = ctx;
  const label = ctx.labelOf(emitter.namespaceNode ?? "");
  switch (event.type) {
    case "chn_pol": {
      const ns = needNamespace(ctx, emitter.namespaceNode ?? "");
      ws.namespaces.set(ns.node, { ...ns, chainNetworks: event.data.networks });
      return ns.label;
    }
    case "disp_v1": {
      const current = ws.resolver.get(event.node);
      ws.resolver.set(event.node, {
        ...(current ?? resolverRow(ws, event.node, 0n, row.ledger)),
        displayFor: event.data.address,
        updatedLedger: row.ledger,
      });
      return label;
    }
    case "addr_v1":
      ws.resolver.set(event.node, {
        ...resolverRow(ws, event.node, event.generation, row.ledger),
        address: event.data,
      });
      break;
    case "text_v1": {
      const r = resolverRow(ws, event.node, event.generation, row.ledger);
      ws.resolver.set(event.node, { ...r, textKeys: [...new Set([...r.textKeys, event.data])] });
      break;
    }
    case "pay_v1":
      ws.resolver.set(event.node, {
        ...resolverRow(ws, event.node, event.generation, row.ledger),
        paymentAddress: event.data.address,
        paymentMemo: event.data.memo,
      });
      break;
    case "chn_v1": {
      const r = resolverRow(ws, event.node, event.generation, row.ledger);
      ws.resolver.set(event.node, {
        ...r,
        chainNetworks: [...new Set([...r.chainNetworks, event.data.network])],
      });
      break;
    }
  }
  ws.changedNodes.add(event.node);
  return label;
}
