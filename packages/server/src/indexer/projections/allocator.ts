// Allocator events: claims with their objections, the claim fee's receipts per label and per epoch, fee and
// bond credits, the fee policy and sweeps (docs/contracts.md "Allocator" and "Events"). Chain time comes from the
// archive row and stays null when unknown.
import type { EventsOf } from "@namereg/protocol";
import type { ArchiveRow } from "../decode.ts";
import {
  type ClaimRow,
  type CreditKind,
  claimKey,
  creditKey,
  objectionKey,
  type ReceiptRow,
  receiptEpochKey,
  type WorkingSet,
} from "../working-set.ts";
import { type Projection, type ProjectionContext, ProjectionError } from "./context.ts";

type AllocatorEvent = EventsOf<"allocator">;

const CLOSING_STATE = {
  clm_awd: "awarded",
  clm_wd: "withdrawn",
  clm_rej: "rejected",
  clm_exp: "expired",
} as const;

export const allocator: Projection<"allocator"> = {
  keys(event, keys) {
    switch (event.type) {
      case "clm_ann":
        keys.claims.add(event.id);
        keys.credits.add(creditKey("bond", event.data.claimant));
        return;
      case "clm_obj":
      case "obj_end":
        keys.claims.add(event.id);
        keys.credits.add(creditKey("bond", event.data.objector));
        return;
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
      case "fee_cred":
      case "fee_pull":
        keys.credits.add(creditKey("fee", event.data.payee));
        return;
      case "fee_cfg":
      case "fee_sweep":
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
        announcedAt: row.at,
        deadline: c.deadline,
        response: c.response,
        awardedAt: c.awardedAt,
        feeOutcome: null,
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
        filedLedger: row.ledger,
        endedLedger: null,
      });
      ws.claims.set(claimKey(event.id), { ...c, state: "objected", updatedLedger: row.ledger });
      return c.label;
    }
    case "obj_end": {
      const c = claimOf(event.id);
      const key = objectionKey(event.id, event.data.objector);
      const o = ws.objections.get(key);
      if (o === null || !o.live) {
        throw new ProjectionError(
          `obj_end for claim ${event.id} without a live objection by ${event.data.objector}`,
        );
      }
      ws.objections.set(key, { ...o, live: false, endReason: event.data.reason, endedLedger: row.ledger });
      // A dismissal on the merits forfeits the bond to the claimant; every other end returns it to the objector.
      const beneficiary = event.data.reason === "dismissed" ? c.claimant : o.objector;
      addCredit(ws, "bond", beneficiary, { credited: o.bond }, row.ledger);
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
      const awardedAt =
        event.type === "clm_awd" && row.at !== null
          ? BigInt(Math.floor(row.at.getTime() / 1000))
          : c.awardedAt;
      ws.claims.set(claimKey(event.id), {
        ...c,
        state: CLOSING_STATE[event.type],
        awardedAt,
        updatedLedger: row.ledger,
      });
      return c.label;
    }
    case "fee_paid": {
      const { label } = event.data;
      const current = ws.receipts.get(label);
      if (current !== null && current.outcome === "Held") {
        throw new ProjectionError(
          `fee_paid for ${label} while its receipt epoch ${current.epoch} is still held`,
        );
      }
      // The announce in the same transaction created the claim that pays this epoch.
      const claim = ws.claims
        .values()
        .find((c) => c.label === label && c.announcedLedger === row.ledger && c.feeOutcome === null);
      const receipt: ReceiptRow = {
        label,
        key: event.key,
        claimant: event.data.claimant,
        token: event.data.token,
        recipient: null,
        amount: event.data.amount,
        outcome: "Held",
        refundAmount: 0n,
        treasuryAmount: 0n,
        ledger: row.ledger,
        epoch: current === null ? 1 : current.epoch + 1,
        claimId: claim?.id ?? null,
        paidLedger: row.ledger,
        settledLedger: null,
      };
      setReceipt(ws, receipt);
      if (claim !== undefined) ws.claims.set(claimKey(claim.id), { ...claim, feeOutcome: "Held" });
      return label;
    }
    case "fee_done": {
      const { label } = event.data;
      const current = ws.receipts.get(label);
      if (current === null || current.outcome !== "Held") {
        throw new ProjectionError(`fee_done for ${label}, which has no held receipt`);
      }
      const r = event.data.receipt;
      setReceipt(ws, {
        ...current,
        key: event.key,
        claimant: r.claimant,
        token: event.data.token,
        recipient: event.data.recipient,
        amount: r.amount,
        outcome: r.outcome,
        refundAmount: r.refundAmount,
        treasuryAmount: r.treasuryAmount,
        ledger: row.ledger,
        settledLedger: row.ledger,
      });
      const claim: ClaimRow | null =
        current.claimId === null ? null : ws.claims.get(claimKey(current.claimId));
      if (claim !== null) {
        ws.claims.set(claimKey(claim.id), { ...claim, feeOutcome: r.outcome, updatedLedger: row.ledger });
      }
      return label;
    }
    case "fee_cred":
      addCredit(ws, "fee", event.data.payee, { credited: event.data.amount }, row.ledger);
      return null;
    case "fee_pull":
      addCredit(ws, "fee", event.data.payee, { claimed: event.data.amount }, row.ledger);
      return null;
    case "fee_cfg":
      ws.feePolicies.set(row.contractId, {
        allocatorId: row.contractId,
        token: event.data.token,
        amount: event.data.amount,
        recipient: event.data.recipient,
        ledger: row.ledger,
        at: row.at,
      });
      return null;
    case "fee_sweep":
      ws.sweeps.push({
        eventId: row.id,
        recipient: event.data.recipient,
        amount: event.data.amount,
        ledger: row.ledger,
        at: row.at,
      });
      return null;
  }
}

/** The current receipt of the label and the same epoch in the history move together. */
function setReceipt(ws: WorkingSet, r: ReceiptRow): void {
  ws.receipts.set(r.label, r);
  ws.receiptEpochs.set(receiptEpochKey(r.label, r.epoch), {
    label: r.label,
    epoch: r.epoch,
    key: r.key,
    claimId: r.claimId,
    claimant: r.claimant,
    token: r.token,
    recipient: r.recipient,
    amount: r.amount,
    outcome: r.outcome,
    refundAmount: r.refundAmount,
    treasuryAmount: r.treasuryAmount,
    paidLedger: r.paidLedger,
    settledLedger: r.settledLedger,
  });
}

function addCredit(
  ws: WorkingSet,
  kind: CreditKind,
  payee: string,
  delta: { credited?: bigint; claimed?: bigint },
  ledger: number,
): void {
  const key = creditKey(kind, payee);
  const current = ws.credits.get(key);
  ws.credits.set(key, {
    kind,
    payee,
    credited: (current?.credited ?? 0n) + (delta.credited ?? 0n),
    claimed: (current?.claimed ?? 0n) + (delta.claimed ?? 0n),
    updatedLedger: ledger,
  });
}
