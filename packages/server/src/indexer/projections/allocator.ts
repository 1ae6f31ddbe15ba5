// Allocator events: claims and their objections, and the claim fee's receipts.
import type { EventsOf } from "@namereg/protocol";
import type { ArchiveRow } from "../decode.ts";
import { claimKey, objectionKey } from "../working-set.ts";
import { type Projection, type ProjectionContext, ProjectionError } from "./context.ts";

type AllocatorEvent = EventsOf<"allocator">;

export const allocator: Projection<"allocator"> = {
  keys(event, keys) {
    switch (event.type) {
      case "clm_ann":
      case "clm_obj":
      case "obj_end":
      case "clm_resp":
      case "clm_awd":
      case "clm_wd":
      case "clm_rej":
      case "clm_exp":
        keys.claims.add(event.id);
        return;
      case "fee_paid":
      case "fee_done":
        keys.receipts.add(event.data.label);
        return;
      default:
        return;
    }
  },
  apply: (ctx, event, row) => projectAllocator(ctx, event, row),
};

function projectAllocator(ctx: ProjectionContext, event: AllocatorEvent, row: ArchiveRow): string | null {
  const { ws } = ctx;
  const claimOf = (id: bigint) => {
    const c = ws.claims.get(claimKey(id));
    if (c === null) throw new ProjectionError(`${event.type} for unknown claim ${id}`);
    return c;
  };
  switch (event.type) {
    case "clm_ann": {
      const c = event.data;
      ws.claims.set(claimKey(event.id), {
        id: event.id,
        label: c.label,
        claimant: c.claimant,
        basis: c.basis,
        evidence: c.evidence,
        state: c.state,
        announcedLedger: Number(c.announcedLedger),
        deadline: c.deadline,
        response: c.response,
        awardedAt: c.awardedAt,
        updatedLedger: row.ledger,
      });
      return c.label;
    }
    case "clm_obj": {
      const c = claimOf(event.id);
      ws.objections.set(objectionKey(event.id, event.data.objector), {
        claimId: event.id,
        objector: event.data.objector,
        basis: event.data.basis,
        bond: event.data.bond,
        live: true,
        endReason: null,
      });
      ws.claims.set(claimKey(event.id), { ...c, state: "objected", updatedLedger: row.ledger });
      return c.label;
    }
    case "obj_end": {
      const c = claimOf(event.id);
      const key = objectionKey(event.id, event.data.objector);
      const o = ws.objections.get(key);
      if (o !== null) ws.objections.set(key, { ...o, live: false, endReason: event.data.reason });
      const state =
        c.state === "objected" && ws.liveObjections(event.id).length === 0 ? "announced" : c.state;
      ws.claims.set(claimKey(event.id), { ...c, state, updatedLedger: row.ledger });
      return c.label;
    }
    case "clm_resp": {
      const c = claimOf(event.id);
      ws.claims.set(claimKey(event.id), { ...c, response: event.data.response, updatedLedger: row.ledger });
      return c.label;
    }
    case "clm_awd":
    case "clm_wd":
    case "clm_rej":
    case "clm_exp": {
      const c = claimOf(event.id);
      const state = { clm_awd: "awarded", clm_wd: "withdrawn", clm_rej: "rejected", clm_exp: "expired" }[
        event.type
      ];
      const awardedAt =
        event.type === "clm_awd" && row.at !== null
          ? BigInt(Math.floor(row.at.getTime() / 1000))
          : c.awardedAt;
      ws.claims.set(claimKey(event.id), { ...c, state, awardedAt, updatedLedger: row.ledger });
      return c.label;
    }
    case "fee_paid":
      ws.receipts.set(event.data.label, {
        label: event.data.label,
        key: event.key,
        claimant: event.data.claimant,
        token: event.data.token,
        recipient: null,
        amount: event.data.amount,
        outcome: "Held",
        refundAmount: 0n,
        treasuryAmount: 0n,
        ledger: row.ledger,
      });
      return event.data.label;
    case "fee_done": {
      const r = event.data.receipt;
      ws.receipts.set(event.data.label, {
        label: event.data.label,
        key: event.key,
        claimant: r.claimant,
        token: event.data.token,
        recipient: event.data.recipient,
        amount: r.amount,
        outcome: r.outcome,
        refundAmount: r.refundAmount,
        treasuryAmount: r.treasuryAmount,
        ledger: row.ledger,
      });
      return event.data.label;
    }
    default:
      return null; // fee policy, credits and sweeps are archive facts; live routes read the contract
  }
}
