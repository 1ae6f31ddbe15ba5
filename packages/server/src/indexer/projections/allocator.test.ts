import type { ContractEvent } from "@namereg/protocol";
import { describe, expect, it } from "vitest";
import { ALLOCATOR, applyAll, CHAIN_TIME, fakeContext, HOLDER } from "../../../test/fixtures/projections.ts";
import { claimKey, objectionKey, WorkingSet } from "../working-set.ts";
import { ProjectionError } from "./context.ts";

const OBJECTOR = `G${"J".repeat(55)}`;
const announce: ContractEvent = {
  type: "clm_ann",
  id: 1n,
  data: {
    id: 1n,
    label: "newco",
    claimant: HOLDER,
    basis: ["trademark"],
    evidence: [{ label: "reg", url: "https://example.org/tm" }],
    state: "announced",
    announcedLedger: 9n,
    deadline: 1000n,
    response: null,
    awardedAt: null,
  },
};
const claim = {
  id: 1n,
  label: "newco",
  claimant: HOLDER,
  basis: ["trademark"],
  evidence: [{ label: "reg", url: "https://example.org/tm" }],
  state: "announced",
  announcedLedger: 9,
  announcedAt: CHAIN_TIME,
  deadline: 1000n,
  response: null,
  awardedAt: null,
  feeOutcome: null,
  updatedLedger: 10,
};
const object: ContractEvent = {
  type: "clm_obj",
  id: 1n,
  data: { objector: OBJECTOR, basis: ["prior_use"], bond: 5n },
};

const cases: { name: string; events: ContractEvent[]; claim: object; live: boolean | null }[] = [
  { name: "clm_ann creates the claim", events: [announce], claim, live: null },
  {
    name: "clm_obj objects",
    events: [announce, object],
    claim: { ...claim, state: "objected", updatedLedger: 11 },
    live: true,
  },
  {
    name: "obj_end of the last live objection returns the claim to announced",
    events: [
      announce,
      object,
      { type: "obj_end", id: 1n, data: { objector: OBJECTOR, reason: "withdrawn" } },
    ],
    claim: { ...claim, updatedLedger: 12 },
    live: false,
  },
  {
    name: "clm_resp records the response",
    events: [announce, { type: "clm_resp", id: 1n, data: { response: "ours" } }],
    claim: { ...claim, response: "ours", updatedLedger: 11 },
    live: null,
  },
  {
    name: "clm_awd awards at chain time",
    events: [announce, { type: "clm_awd", id: 1n, data: null }],
    claim: { ...claim, state: "awarded", awardedAt: BigInt(CHAIN_TIME.getTime() / 1000), updatedLedger: 11 },
    live: null,
  },
  {
    name: "clm_wd withdraws",
    events: [announce, { type: "clm_wd", id: 1n, data: null }],
    claim: { ...claim, state: "withdrawn", updatedLedger: 11 },
    live: null,
  },
];

describe("allocator projection", () => {
  it.each(cases)("$name", ({ events, claim: expected, live }) => {
    const ws = new WorkingSet();
    ws.claims.seed(claimKey(1n), null);
    const labels = applyAll(fakeContext(ws), ALLOCATOR, events);
    expect(labels.every((l) => l === "newco")).toBe(true);
    expect(ws.claims.get(claimKey(1n))).toEqual(expected);
    expect(ws.objections.get(objectionKey(1n, OBJECTOR))?.live ?? null).toBe(live);
  });

  it("dead-letters an event about an unknown claim", () => {
    const ws = new WorkingSet();
    ws.claims.seed(claimKey(1n), null);
    expect(() => applyAll(fakeContext(ws), ALLOCATOR, [object])).toThrow(ProjectionError);
  });
});

const TOKEN = `C${"T".repeat(55)}`;
const TREASURY = `G${"Y".repeat(55)}`;
const KEY = "cd".repeat(32);
const FEE = 1_000_000_001n; // odd, so the 80% refund rounds down
const paid = (label = "newco"): ContractEvent => ({
  type: "fee_paid",
  key: KEY,
  data: { label, claimant: HOLDER, token: TOKEN, amount: FEE },
});
const done = (
  outcome: "Awarded" | "Rejected" | "Withdrawn" | "Expired" | "Stuck",
  refund: bigint,
): ContractEvent => ({
  type: "fee_done",
  key: KEY,
  data: {
    label: "newco",
    token: TOKEN,
    recipient: TREASURY,
    receipt: { claimant: HOLDER, amount: FEE, outcome, refundAmount: refund, treasuryAmount: FEE - refund },
  },
});
const close = { Awarded: "clm_awd", Rejected: "clm_rej", Withdrawn: "clm_wd", Expired: "clm_exp" } as const;

describe("allocator projection: fee receipts", () => {
  // The contract computes the split (floor of amount × refundBps / 10000); the mirror keeps it as emitted.
  it.each([
    { outcome: "Awarded", refund: 0n, state: "awarded" },
    { outcome: "Rejected", refund: FEE, state: "rejected" },
    { outcome: "Withdrawn", refund: 800_000_000n, state: "withdrawn" },
    { outcome: "Expired", refund: 800_000_000n, state: "expired" },
    { outcome: "Stuck", refund: FEE, state: "announced" },
  ] as const)("$outcome: receipt, claim and refund credit", ({ outcome, refund, state }) => {
    const ws = new WorkingSet();
    ws.claims.seed(claimKey(1n), null);
    ws.receipts.seed("newco", null);
    const settle: ContractEvent[] = [
      ...(outcome === "Stuck" ? [] : [{ type: close[outcome], id: 1n, data: null } as ContractEvent]),
      ...(refund > 0n
        ? [{ type: "fee_cred", data: { payee: HOLDER, amount: refund } } as ContractEvent]
        : []),
      done(outcome, refund),
    ];
    // announce and fee_paid share ledger 9 (one transaction); settlement comes later in one ledger.
    applyAll(fakeContext(ws), ALLOCATOR, [announce], 9);
    applyAll(fakeContext(ws), ALLOCATOR, [paid()], 9);
    for (const e of settle) applyAll(fakeContext(ws), ALLOCATOR, [e], 20);
    const receipt = {
      label: "newco",
      key: KEY,
      claimant: HOLDER,
      token: TOKEN,
      recipient: TREASURY,
      amount: FEE,
      outcome,
      refundAmount: refund,
      treasuryAmount: FEE - refund,
      ledger: 20,
      epoch: 1,
      claimId: 1n,
      paidLedger: 9,
      settledLedger: 20,
    };
    expect(ws.receipts.get("newco")).toEqual(receipt);
    const { ledger: _, ...epoch } = receipt;
    expect(ws.receiptEpochs.changed().upserts).toEqual([epoch]);
    expect(ws.claims.get(claimKey(1n))).toMatchObject({ state, feeOutcome: outcome });
    expect(ws.credits.get(`fee:${HOLDER}`)).toEqual(
      refund > 0n ? { kind: "fee", payee: HOLDER, credited: refund, claimed: 0n, updatedLedger: 20 } : null,
    );
  });

  it("a fresh claim after a terminal receipt starts the next epoch and keeps the earlier one", () => {
    const ws = new WorkingSet();
    ws.claims.seed(claimKey(1n), null);
    ws.claims.seed(claimKey(2n), null);
    ws.receipts.seed("newco", null);
    applyAll(fakeContext(ws), ALLOCATOR, [announce], 9);
    applyAll(fakeContext(ws), ALLOCATOR, [paid()], 9);
    applyAll(
      fakeContext(ws),
      ALLOCATOR,
      [{ type: "clm_rej", id: 1n, data: null }, done("Rejected", FEE)],
      20,
    );
    const second = {
      ...announce,
      id: 2n,
      data: { ...announce.data, id: 2n, announcedLedger: 30n },
    } as ContractEvent;
    applyAll(fakeContext(ws), ALLOCATOR, [second], 30);
    applyAll(fakeContext(ws), ALLOCATOR, [paid()], 30);
    expect(ws.receipts.get("newco")).toMatchObject({
      epoch: 2,
      claimId: 2n,
      outcome: "Held",
      paidLedger: 30,
    });
    expect(
      ws.receiptEpochs.changed().upserts.map((r) => [r.epoch, r.claimId, r.outcome, r.refundAmount]),
    ).toEqual([
      [1, 1n, "Rejected", FEE],
      [2, 2n, "Held", 0n],
    ]);
  });

  it.each<[string, ContractEvent[]]>([
    ["a settlement without a held receipt", [done("Awarded", 0n)]],
    ["a second payment while the receipt is held", [paid(), paid()]],
  ])("dead-letters %s", (_, events) => {
    const ws = new WorkingSet();
    ws.receipts.seed("newco", null);
    expect(() => applyAll(fakeContext(ws), ALLOCATOR, events)).toThrow(ProjectionError);
  });
});

describe("allocator projection: credits, policy and sweeps", () => {
  const SIGNER = `G${"K".repeat(55)}`;
  it.each([
    { reason: "dismissed", beneficiary: HOLDER },
    { reason: "timeout", beneficiary: OBJECTOR },
    { reason: "closed", beneficiary: OBJECTOR },
  ])("an objection ended as $reason credits its bond to the right account", ({ reason, beneficiary }) => {
    const ws = new WorkingSet();
    ws.claims.seed(claimKey(1n), null);
    applyAll(fakeContext(ws), ALLOCATOR, [
      announce,
      object,
      { type: "obj_end", id: 1n, data: { objector: OBJECTOR, reason } },
    ]);
    expect(ws.credits.changed().upserts).toEqual([
      { kind: "bond", payee: beneficiary, credited: 5n, claimed: 0n, updatedLedger: 12 },
    ]);
    expect(ws.objections.get(objectionKey(1n, OBJECTOR))).toMatchObject({
      live: false,
      endReason: reason,
      filedLedger: 11,
      endedLedger: 12,
    });
  });

  it("fee credits add up and a pull (by any signer) records what was delivered to the payee", () => {
    const ws = new WorkingSet();
    ws.credits.seed(`fee:${HOLDER}`, {
      kind: "fee",
      payee: HOLDER,
      credited: 7n,
      claimed: 0n,
      updatedLedger: 5,
    });
    applyAll(fakeContext(ws), ALLOCATOR, [
      { type: "fee_cred", data: { payee: HOLDER, amount: 3n } },
      { type: "fee_pull", data: { payee: HOLDER, amount: 10n } },
    ]);
    expect(ws.credits.get(`fee:${HOLDER}`)).toEqual({
      kind: "fee",
      payee: HOLDER,
      credited: 10n,
      claimed: 10n,
      updatedLedger: 11,
    });
    expect(ws.credits.get(`fee:${SIGNER}`)).toBeNull();
  });

  it("fee_cfg records the policy per allocator with chain time; fee_sweep is logged by event id", () => {
    const ws = new WorkingSet();
    applyAll(fakeContext(ws), ALLOCATOR, [
      { type: "fee_cfg", data: { token: TOKEN, amount: FEE, recipient: TREASURY } },
      { type: "fee_sweep", data: { recipient: TREASURY, amount: 4n } },
    ]);
    expect(ws.feePolicies.changed().upserts).toEqual([
      { allocatorId: ALLOCATOR, token: TOKEN, amount: FEE, recipient: TREASURY, ledger: 10, at: CHAIN_TIME },
    ]);
    expect(ws.sweeps).toEqual([
      { eventId: "11-1", recipient: TREASURY, amount: 4n, ledger: 11, at: CHAIN_TIME },
    ]);
  });
});
