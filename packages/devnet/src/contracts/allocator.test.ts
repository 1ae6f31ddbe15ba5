import {
  AllocatorFns,
  type ArgValues,
  address,
  type Claim,
  type Codec,
  type ContractEvent,
  claimFeeKey,
  decodeEvent,
  type FeePolicy,
  type FnDef,
  hash32,
  Namespace,
  namespaceNode,
  RegistryFns,
} from "@namereg/protocol";
import { Keypair, StrKey } from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { AuthError, MemoryHost } from "../../test/fixtures/memory-host.ts";
import { balance, deployTestToken, mint } from "../../test/fixtures/token.ts";
import { type Contract, ContractError } from "../host/contract.ts";
import { allocatorContract } from "./allocator.ts";
import { defineContract, emitEvent, key, typed } from "./define.ts";

const account = (n: number) => Keypair.fromRawEd25519Seed(Buffer.alloc(32, n)).publicKey();
const ADMIN = account(1);
const CLAIMANT = account(2);
const OBJECTOR = account(3);
const OBJECTOR2 = account(4);
const TREASURY = account(5);
const STRANGER = account(6);
const OWNER = account(7);
const SWEEP_TO = account(8);
const OTHER_TOKEN = StrKey.encodeContract(Buffer.alloc(32, 9));

const WINDOW = 7n * 86_400n;
const GRACE = 86_400n;
const FEE = 100_000_000n;
const FUNDS = 10_000_000_000n;

// A registry reduced to what the allocator calls: namespace reads and allocation by the allocator.
const unsupported = (): never => {
  throw new Error("fake registry: not implemented");
};
const nsKey = (node: string) => key("Ns", hash32.encode(node));
const fakeRegistry = defineContract("registry", RegistryFns, {
  __constructor(ctx, { allocator }) {
    typed(ctx.storage).set(key("Allocator"), address, allocator);
    return null;
  },
  namespace: (ctx, { node }) => typed(ctx.storage).get(nsKey(node), Namespace) ?? null,
  allocate(ctx, { label, owner, method }) {
    ctx.requireAuth(typed(ctx.storage).need(key("Allocator"), address, 1));
    const node = namespaceNode(label);
    if (ctx.storage.has(nsKey(node))) throw new ContractError(4);
    typed(ctx.storage).set(nsKey(node), Namespace, {
      label,
      owner,
      registrar: ctx.contractId,
      resolver: null,
      locked: false,
      allocatedLedger: BigInt(ctx.ledgerSequence),
      method,
    });
    return null;
  },
  deploy_registrar: unsupported,
  attach_registrar: unsupported,
  deploy_resolver: unsupported,
  set_resolver: unsupported,
  upgrade_registrar: unsupported,
  upgrade_resolver: unsupported,
  lock: unsupported,
  propose_transfer: unsupported,
  accept_transfer: unsupported,
  cancel_transfer: unsupported,
  transfer_proposal: unsupported,
});

// Calls announce and then fails: the whole transaction, nested calls included, must leave no trace.
const failingCaller: Contract = {
  kind: "failing_caller",
  invoke(ctx, _fn, args) {
    const [allocator] = args;
    if (allocator === undefined) throw new Error("failing_caller(allocator, args...)");
    ctx.call(address.decode(allocator), "announce", args.slice(1));
    emitEvent(ctx, { topics: [], data: allocator });
    throw new ContractError(99);
  },
};

type Spec = readonly (readonly [string, Codec<unknown>])[];

function setup(opts: { policy?: boolean; fee?: bigint } = {}) {
  const host = new MemoryHost();
  host.register(allocatorContract);
  host.register(fakeRegistry);
  host.register(failingCaller);
  const token = deployTestToken(host);
  const registry = host.deploy("registry");
  const allocator = host.deploy(
    "allocator",
    AllocatorFns.__constructor.encodeArgs({
      admin: ADMIN,
      registry,
      windowSeconds: WINDOW,
      graceSeconds: GRACE,
    }),
  );
  host.invoke(registry, "__constructor", RegistryFns.__constructor.encodeArgs({ admin: ADMIN, allocator }));
  for (const who of [CLAIMANT, OBJECTOR, OBJECTOR2, STRANGER]) mint(host, token, who, FUNDS);
  const policy: FeePolicy = { token, amount: opts.fee ?? FEE, recipient: TREASURY };

  function call<A extends Spec, R>(def: FnDef<A, R>, args: ArgValues<A>, signers: string[] = []): R {
    return def.returns.decode(host.invoke(allocator, def.name, def.encodeArgs(args), signers));
  }
  const t = {
    host,
    token,
    registry,
    allocator,
    policy,
    call,
    balanceOf: (who: string) => balance(host, token, who),
    /** Decoded allocator events emitted since `from`, in order. */
    events: (from: number): (ContractEvent | null)[] =>
      host
        .eventsSince(from)
        .filter((e) => e.contractId === allocator)
        .map((e) => decodeEvent(e.topics, e.data)),
    announce: (label = "acme", claimant = CLAIMANT, fee = policy) =>
      call(
        AllocatorFns.announce,
        {
          claimant,
          label,
          basis: ["trademark"],
          evidence: [{ label: "site", url: "https://acme.test" }],
          fee,
        },
        [claimant],
      ),
    claim: (id: bigint) => call(AllocatorFns.claim, { id }),
    receipt: (label = "acme") => call(AllocatorFns.fee_receipt, { label }),
    namespace: (label: string) => {
      const args = RegistryFns.namespace.encodeArgs({ node: namespaceNode(label) });
      return RegistryFns.namespace.returns.decode(host.invoke(registry, "namespace", args));
    },
    advance: (seconds: bigint) => {
      host.timestamp += seconds;
    },
  };
  if (opts.policy !== false) call(AllocatorFns.set_fee_policy, policy, [ADMIN]);
  return t;
}

function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    return err;
  }
  throw new Error("expected a failure");
}

function expectContractError(run: () => unknown, code: number): void {
  const err = errorOf(run);
  expect(err).toBeInstanceOf(ContractError);
  expect((err as ContractError).code).toBe(code);
}

function expectAuthError(run: () => unknown, who: string): void {
  const err = errorOf(run);
  expect(err).toBeInstanceOf(AuthError);
  expect((err as Error).message).toContain(who);
}

describe("allocator fee policy", () => {
  it("is unset until the admin sets it, then emits fee_cfg and reads back", () => {
    const t = setup({ policy: false });
    expect(t.call(AllocatorFns.fee_policy, {})).toBeNull();
    expectAuthError(() => t.call(AllocatorFns.set_fee_policy, t.policy, [STRANGER]), ADMIN);
    const from = t.host.events.length;
    t.call(AllocatorFns.set_fee_policy, t.policy, [ADMIN]);
    expect(t.events(from)).toEqual([{ type: "fee_cfg", data: t.policy }]);
    expect(t.call(AllocatorFns.fee_policy, {})).toEqual(t.policy);
  });

  it("rejects a non-positive amount and a change of token with #11", () => {
    const t = setup();
    expectContractError(() => t.call(AllocatorFns.set_fee_policy, { ...t.policy, amount: 0n }, [ADMIN]), 11);
    expectContractError(() => t.call(AllocatorFns.set_fee_policy, { ...t.policy, amount: -5n }, [ADMIN]), 11);
    expectContractError(
      () => t.call(AllocatorFns.set_fee_policy, { ...t.policy, token: OTHER_TOKEN }, [ADMIN]),
      11,
    );
    const raised = { ...t.policy, amount: 2n * FEE, recipient: OWNER };
    t.call(AllocatorFns.set_fee_policy, raised, [ADMIN]);
    expect(t.call(AllocatorFns.fee_policy, {})).toEqual(raised);
  });
});

describe("allocator announce", () => {
  it("stores the claim and a held receipt, moves the fee and emits clm_ann then fee_paid", () => {
    const t = setup();
    t.host.ledgerSequence = 321;
    const from = t.host.events.length;
    const id = t.announce();
    expect(id).toBe(1n);
    const claim: Claim = {
      id: 1n,
      label: "acme",
      claimant: CLAIMANT,
      basis: ["trademark"],
      evidence: [{ label: "site", url: "https://acme.test" }],
      state: "announced",
      announcedLedger: 321n,
      deadline: t.host.timestamp + WINDOW,
      response: null,
      awardedAt: null,
    };
    expect(t.claim(1n)).toEqual(claim);
    expect(t.receipt()).toEqual({
      claimant: CLAIMANT,
      amount: FEE,
      outcome: "Held",
      refundAmount: 0n,
      treasuryAmount: 0n,
    });
    expect(t.events(from)).toEqual([
      { type: "clm_ann", id: 1n, data: claim },
      {
        type: "fee_paid",
        key: claimFeeKey("acme"),
        data: { label: "acme", claimant: CLAIMANT, token: t.token, amount: FEE },
      },
    ]);
    expect(t.balanceOf(CLAIMANT)).toBe(FUNDS - FEE);
    expect(t.balanceOf(t.allocator)).toBe(FEE);
    expect(t.balanceOf(TREASURY)).toBe(0n);
    expect(t.announce("other")).toBe(2n);
    expect(t.claim(99n)).toBeNull();
    expect(t.receipt("nothing")).toBeNull();
  });

  it("requires the claimant's authorisation", () => {
    const t = setup();
    const args = AllocatorFns.announce.encodeArgs({
      claimant: CLAIMANT,
      label: "acme",
      basis: [],
      evidence: [],
      fee: t.policy,
    });
    expectAuthError(() => t.host.invoke(t.allocator, "announce", args, [STRANGER]), CLAIMANT);
  });

  it("fails with #11 when the fee differs from the policy or no policy is set", () => {
    const unset = setup({ policy: false });
    expectContractError(() => unset.announce(), 11);
    const t = setup();
    expectContractError(() => t.announce("acme", CLAIMANT, { ...t.policy, amount: FEE - 1n }), 11);
    expectContractError(() => t.announce("acme", CLAIMANT, { ...t.policy, recipient: STRANGER }), 11);
    expectContractError(() => t.announce("acme", CLAIMANT, { ...t.policy, token: OTHER_TOKEN }), 11);
    const quoted = t.policy;
    t.call(AllocatorFns.set_fee_policy, { ...t.policy, amount: FEE + 1n }, [ADMIN]);
    expectContractError(() => t.announce("acme", CLAIMANT, quoted), 11);
    expect(t.balanceOf(CLAIMANT)).toBe(FUNDS);
  });

  it("fails with #4 for a label with a live claim or an allocated namespace", () => {
    const t = setup();
    t.announce();
    expectContractError(() => t.announce("acme", STRANGER), 4);
    t.call(AllocatorFns.reserve, { label: "taken", owner: OWNER }, [ADMIN]);
    expectContractError(() => t.announce("taken"), 4);
  });

  it("replaces a terminal receipt with a new epoch", () => {
    const t = setup();
    t.announce();
    t.call(AllocatorFns.withdraw, { id: 1n }, [CLAIMANT]);
    expect(t.receipt()?.outcome).toBe("Withdrawn");
    const from = t.host.events.length;
    expect(t.announce("acme", STRANGER)).toBe(2n);
    expect(t.receipt()).toEqual({
      claimant: STRANGER,
      amount: FEE,
      outcome: "Held",
      refundAmount: 0n,
      treasuryAmount: 0n,
    });
    expect(t.events(from).map((e) => e?.type)).toEqual(["clm_ann", "fee_paid"]);
    expect(t.claim(1n)?.state).toBe("withdrawn");
  });
});

describe("allocator objections", () => {
  it("files an objection with its bond and moves the claim to objected", () => {
    const t = setup();
    t.announce();
    const from = t.host.events.length;
    t.call(AllocatorFns.object, { objector: OBJECTOR, id: 1n, basis: ["prior_use"], bond: 5_000n }, [
      OBJECTOR,
    ]);
    expect(t.claim(1n)?.state).toBe("objected");
    expect(t.events(from)).toEqual([
      { type: "clm_obj", id: 1n, data: { objector: OBJECTOR, basis: ["prior_use"], bond: 5_000n } },
    ]);
    expect(t.balanceOf(OBJECTOR)).toBe(FUNDS - 5_000n);
    expect(t.balanceOf(t.allocator)).toBe(FEE + 5_000n);
    // A zero bond moves no money.
    t.call(AllocatorFns.object, { objector: OBJECTOR2, id: 1n, basis: [], bond: 0n }, [OBJECTOR2]);
    expect(t.balanceOf(OBJECTOR2)).toBe(FUNDS);
  });

  it("refuses a second live objection, an unknown claim, a closed window and a missing signature", () => {
    const t = setup();
    t.announce();
    const object = (id: bigint, signer = OBJECTOR) =>
      t.call(AllocatorFns.object, { objector: OBJECTOR, id, basis: [], bond: 1n }, [signer]);
    expectAuthError(() => object(1n, STRANGER), OBJECTOR);
    object(1n);
    expectContractError(() => object(1n), 13);
    expectContractError(() => object(7n), 13);
    t.advance(WINDOW);
    expectContractError(
      () => t.call(AllocatorFns.object, { objector: OBJECTOR2, id: 1n, basis: [], bond: 1n }, [OBJECTOR2]),
      14,
    );
    expect(() =>
      t.call(AllocatorFns.object, { objector: OBJECTOR2, id: 1n, basis: [], bond: -1n }, [OBJECTOR2]),
    ).toThrow();
  });

  it("an admin dismissal inside the window forfeits the bond to the claimant", () => {
    const t = setup();
    t.announce();
    t.call(AllocatorFns.object, { objector: OBJECTOR, id: 1n, basis: [], bond: 700n }, [OBJECTOR]);
    t.call(AllocatorFns.object, { objector: OBJECTOR2, id: 1n, basis: [], bond: 300n }, [OBJECTOR2]);
    const dismiss = (objector: string, signers: string[]) =>
      t.call(AllocatorFns.dismiss_objection, { id: 1n, objector }, signers);
    expectAuthError(() => dismiss(OBJECTOR, [CLAIMANT]), ADMIN);
    const from = t.host.events.length;
    dismiss(OBJECTOR, [ADMIN]);
    expect(t.events(from)).toEqual([
      { type: "obj_end", id: 1n, data: { objector: OBJECTOR, reason: "dismissed" } },
    ]);
    expect(t.call(AllocatorFns.bond_credit, { payee: CLAIMANT })).toBe(700n);
    expect(t.call(AllocatorFns.bond_credit, { payee: OBJECTOR })).toBe(0n);
    expect(t.claim(1n)?.state).toBe("objected");
    expectContractError(() => dismiss(OBJECTOR, [ADMIN]), 13);
    dismiss(OBJECTOR2, [ADMIN]);
    expect(t.claim(1n)?.state).toBe("announced");
    expect(t.call(AllocatorFns.bond_credit, { payee: CLAIMANT })).toBe(1_000n);
    // Bond credits are separate from fee credits.
    expect(t.call(AllocatorFns.fee_credit, { payee: CLAIMANT })).toBe(0n);
    expectContractError(() => t.call(AllocatorFns.claim_fee_credit, { payee: CLAIMANT }), 12);
  });

  it("a timed-out objection may be ended by anyone and returns the bond to the objector", () => {
    const t = setup();
    t.announce();
    t.advance(100n);
    t.call(AllocatorFns.object, { objector: OBJECTOR, id: 1n, basis: [], bond: 700n }, [OBJECTOR]);
    t.advance(WINDOW - 1n);
    expectAuthError(() => t.call(AllocatorFns.dismiss_objection, { id: 1n, objector: OBJECTOR }), ADMIN);
    t.advance(1n);
    const from = t.host.events.length;
    t.call(AllocatorFns.dismiss_objection, { id: 1n, objector: OBJECTOR });
    expect(t.events(from)).toEqual([
      { type: "obj_end", id: 1n, data: { objector: OBJECTOR, reason: "timeout" } },
    ]);
    expect(t.claim(1n)?.state).toBe("announced");
    expect(t.call(AllocatorFns.bond_credit, { payee: OBJECTOR })).toBe(700n);
    expect(t.call(AllocatorFns.bond_credit, { payee: CLAIMANT })).toBe(0n);
    // Anyone may trigger the pull; it always pays the objector.
    expect(t.call(AllocatorFns.claim_bond_credit, { payee: OBJECTOR }, [STRANGER])).toBe(700n);
    expect(t.balanceOf(OBJECTOR)).toBe(FUNDS);
    expect(t.balanceOf(STRANGER)).toBe(FUNDS);
    expectContractError(() => t.call(AllocatorFns.claim_bond_credit, { payee: OBJECTOR }), 12);
  });
});

describe("allocator award", () => {
  it("needs the admin before the deadline, then allocates, settles and pays the treasury", () => {
    const t = setup();
    t.announce();
    expectAuthError(() => t.call(AllocatorFns.award, { id: 1n }, [CLAIMANT]), ADMIN);
    t.advance(WINDOW);
    const from = t.host.events.length;
    t.call(AllocatorFns.award, { id: 1n });
    expect(t.namespace("acme")).toMatchObject({ label: "acme", owner: CLAIMANT, method: "allocate" });
    const claim = t.claim(1n);
    expect(claim).toMatchObject({ state: "awarded", awardedAt: t.host.timestamp });
    const receipt = {
      claimant: CLAIMANT,
      amount: FEE,
      outcome: "Awarded",
      refundAmount: 0n,
      treasuryAmount: FEE,
    };
    expect(t.receipt()).toEqual(receipt);
    expect(t.events(from)).toEqual([
      { type: "clm_awd", id: 1n, data: null },
      {
        type: "fee_done",
        key: claimFeeKey("acme"),
        data: { label: "acme", token: t.token, recipient: TREASURY, receipt },
      },
    ]);
    expect(t.balanceOf(TREASURY)).toBe(FEE);
    expect(t.balanceOf(t.allocator)).toBe(0n);
    expect(t.call(AllocatorFns.fee_credit, { payee: CLAIMANT })).toBe(0n);
    expectContractError(() => t.call(AllocatorFns.award, { id: 1n }, [ADMIN]), 13);
    expectContractError(() => t.call(AllocatorFns.withdraw, { id: 1n }, [CLAIMANT]), 13);
  });

  it("lets the admin award early", () => {
    const t = setup();
    t.announce();
    t.call(AllocatorFns.award, { id: 1n }, [ADMIN]);
    expect(t.claim(1n)?.state).toBe("awarded");
    expect(t.namespace("acme")?.owner).toBe(CLAIMANT);
  });

  it("after the deadline a live objection still needs the admin, whose award returns the bond", () => {
    const t = setup();
    t.announce();
    t.call(AllocatorFns.object, { objector: OBJECTOR, id: 1n, basis: [], bond: 900n }, [OBJECTOR]);
    t.advance(WINDOW);
    expectAuthError(() => t.call(AllocatorFns.award, { id: 1n }, [STRANGER]), ADMIN);
    const from = t.host.events.length;
    t.call(AllocatorFns.award, { id: 1n }, [ADMIN]);
    expect(t.events(from).map((e) => e?.type)).toEqual(["obj_end", "clm_awd", "fee_done"]);
    expect(t.events(from)[0]).toEqual({
      type: "obj_end",
      id: 1n,
      data: { objector: OBJECTOR, reason: "awarded" },
    });
    expect(t.call(AllocatorFns.bond_credit, { payee: OBJECTOR })).toBe(900n);
    expectContractError(
      () => t.call(AllocatorFns.dismiss_objection, { id: 1n, objector: OBJECTOR }, [ADMIN]),
      13,
    );
  });

  it("lets anyone award after the deadline once the objections are gone", () => {
    const t = setup();
    t.announce();
    t.call(AllocatorFns.object, { objector: OBJECTOR, id: 1n, basis: [], bond: 1n }, [OBJECTOR]);
    t.call(AllocatorFns.dismiss_objection, { id: 1n, objector: OBJECTOR }, [ADMIN]);
    t.advance(WINDOW);
    t.call(AllocatorFns.award, { id: 1n }, [STRANGER]);
    expect(t.claim(1n)?.state).toBe("awarded");
  });
});

describe("allocator refunds", () => {
  const FEE_ODD = 1_000_000_007n;
  const cases = [
    {
      outcome: "Withdrawn",
      refund: 800_000_005n,
      treasury: 200_000_002n,
      state: "withdrawn",
      event: "clm_wd",
    },
    { outcome: "Expired", refund: 800_000_005n, treasury: 200_000_002n, state: "expired", event: "clm_exp" },
    { outcome: "Rejected", refund: FEE_ODD, treasury: 0n, state: "rejected", event: "clm_rej" },
    { outcome: "Stuck", refund: FEE_ODD, treasury: 0n, state: "announced", event: null },
    { outcome: "Awarded", refund: 0n, treasury: FEE_ODD, state: "awarded", event: "clm_awd" },
  ] as const;

  function end(t: ReturnType<typeof setup>, outcome: (typeof cases)[number]["outcome"]): void {
    const id = { id: 1n };
    if (outcome === "Withdrawn") t.call(AllocatorFns.withdraw, id, [CLAIMANT]);
    if (outcome === "Rejected") t.call(AllocatorFns.reject, id, [ADMIN]);
    if (outcome === "Stuck") t.call(AllocatorFns.mark_stuck, id, [ADMIN]);
    if (outcome === "Awarded") t.call(AllocatorFns.award, id, [ADMIN]);
    if (outcome === "Expired") {
      t.advance(WINDOW + GRACE);
      t.call(AllocatorFns.expire, id);
    }
  }

  for (const c of cases) {
    it(`${c.outcome}: refund ${c.refund}, treasury ${c.treasury} (floor)`, () => {
      const t = setup({ fee: FEE_ODD });
      t.announce();
      const from = t.host.events.length;
      end(t, c.outcome);
      const receipt = {
        claimant: CLAIMANT,
        amount: FEE_ODD,
        outcome: c.outcome,
        refundAmount: c.refund,
        treasuryAmount: c.treasury,
      };
      expect(t.receipt()).toEqual(receipt);
      expect(t.claim(1n)?.state).toBe(c.state);
      const expected: ContractEvent[] = [];
      if (c.event !== null) expected.push({ type: c.event, id: 1n, data: null });
      if (c.refund > 0n) expected.push({ type: "fee_cred", data: { payee: CLAIMANT, amount: c.refund } });
      expected.push({
        type: "fee_done",
        key: claimFeeKey("acme"),
        data: { label: "acme", token: t.token, recipient: TREASURY, receipt },
      });
      expect(t.events(from)).toEqual(expected);
      expect(t.balanceOf(TREASURY)).toBe(c.treasury);
      expect(t.balanceOf(t.allocator)).toBe(c.refund);
      expect(t.call(AllocatorFns.fee_credit, { payee: CLAIMANT })).toBe(c.refund);
    });
  }

  it("pays a fee credit to the payee even when someone else triggers it", () => {
    const t = setup({ fee: FEE_ODD });
    t.announce();
    t.call(AllocatorFns.withdraw, { id: 1n }, [CLAIMANT]);
    const from = t.host.events.length;
    expect(t.call(AllocatorFns.claim_fee_credit, { payee: CLAIMANT }, [STRANGER])).toBe(800_000_005n);
    expect(t.events(from)).toEqual([{ type: "fee_pull", data: { payee: CLAIMANT, amount: 800_000_005n } }]);
    expect(t.balanceOf(CLAIMANT)).toBe(FUNDS - FEE_ODD + 800_000_005n);
    expect(t.balanceOf(STRANGER)).toBe(FUNDS);
    expect(t.balanceOf(t.allocator)).toBe(0n);
    expect(t.call(AllocatorFns.fee_credit, { payee: CLAIMANT })).toBe(0n);
    expectContractError(() => t.call(AllocatorFns.claim_fee_credit, { payee: CLAIMANT }), 12);
    expectContractError(() => t.call(AllocatorFns.claim_fee_credit, { payee: STRANGER }), 12);
  });

  it("accumulates credits across epochs and touch_fee_credit changes nothing", () => {
    const t = setup();
    t.announce();
    t.call(AllocatorFns.reject, { id: 1n }, [ADMIN]);
    t.announce();
    t.call(AllocatorFns.withdraw, { id: 2n }, [CLAIMANT]);
    expect(t.call(AllocatorFns.fee_credit, { payee: CLAIMANT })).toBe(FEE + (FEE * 8n) / 10n);
    const from = t.host.events.length;
    t.call(AllocatorFns.touch_fee_credit, { payee: CLAIMANT });
    t.call(AllocatorFns.touch_fee_credit, { payee: STRANGER });
    expect(t.host.eventsSince(from)).toEqual([]);
    expect(t.call(AllocatorFns.fee_credit, { payee: CLAIMANT })).toBe(FEE + (FEE * 8n) / 10n);
  });
});

describe("allocator closing", () => {
  it("withdraw needs the claimant, reject the admin; both close live objections with their bonds", () => {
    const t = setup();
    t.announce();
    t.call(AllocatorFns.object, { objector: OBJECTOR, id: 1n, basis: [], bond: 50n }, [OBJECTOR]);
    expectAuthError(() => t.call(AllocatorFns.withdraw, { id: 1n }, [ADMIN]), CLAIMANT);
    expectAuthError(() => t.call(AllocatorFns.reject, { id: 1n }, [CLAIMANT]), ADMIN);
    const from = t.host.events.length;
    t.call(AllocatorFns.reject, { id: 1n }, [ADMIN]);
    expect(t.events(from).map((e) => e?.type)).toEqual(["obj_end", "clm_rej", "fee_cred", "fee_done"]);
    expect(t.events(from)[0]).toEqual({
      type: "obj_end",
      id: 1n,
      data: { objector: OBJECTOR, reason: "closed" },
    });
    expect(t.call(AllocatorFns.bond_credit, { payee: OBJECTOR })).toBe(50n);
    expectContractError(() => t.call(AllocatorFns.reject, { id: 1n }, [ADMIN]), 13);
    expectContractError(() => t.call(AllocatorFns.withdraw, { id: 9n }, [CLAIMANT]), 13);
  });

  it("expire waits for the deadline plus grace", () => {
    const t = setup();
    t.announce();
    t.call(AllocatorFns.object, { objector: OBJECTOR, id: 1n, basis: [], bond: 50n }, [OBJECTOR]);
    t.advance(WINDOW + GRACE - 1n);
    expectContractError(() => t.call(AllocatorFns.expire, { id: 1n }), 14);
    t.advance(1n);
    t.call(AllocatorFns.expire, { id: 1n }, [STRANGER]);
    expect(t.claim(1n)?.state).toBe("expired");
    expect(t.call(AllocatorFns.bond_credit, { payee: OBJECTOR })).toBe(50n);
    expectContractError(() => t.call(AllocatorFns.expire, { id: 1n }), 13);
  });

  it("respond records the claimant's response on a live claim only", () => {
    const t = setup();
    t.announce();
    expectAuthError(() => t.call(AllocatorFns.respond, { id: 1n, response: "x" }, [STRANGER]), CLAIMANT);
    const from = t.host.events.length;
    t.call(AllocatorFns.respond, { id: 1n, response: "we hold the mark" }, [CLAIMANT]);
    expect(t.claim(1n)?.response).toBe("we hold the mark");
    expect(t.events(from)).toEqual([{ type: "clm_resp", id: 1n, data: { response: "we hold the mark" } }]);
    t.call(AllocatorFns.withdraw, { id: 1n }, [CLAIMANT]);
    expectContractError(() => t.call(AllocatorFns.respond, { id: 1n, response: "late" }, [CLAIMANT]), 13);
    expectContractError(() => t.call(AllocatorFns.respond, { id: 5n, response: "?" }, [CLAIMANT]), 13);
  });

  it("mark_stuck refunds in full, keeps the claim state and frees the label for a new epoch", () => {
    const t = setup();
    t.announce();
    expectAuthError(() => t.call(AllocatorFns.mark_stuck, { id: 1n }, [CLAIMANT]), ADMIN);
    t.call(AllocatorFns.mark_stuck, { id: 1n }, [ADMIN]);
    expect(t.claim(1n)?.state).toBe("announced");
    expectContractError(() => t.call(AllocatorFns.mark_stuck, { id: 1n }, [ADMIN]), 13);
    // The stuck claim's fee is gone, so it can never be awarded (the registry is not even called).
    expectContractError(() => t.call(AllocatorFns.award, { id: 1n }, [ADMIN]), 13);
    expect(t.namespace("acme")).toBeNull();
    t.announce("acme", STRANGER);
    // Nor may it settle its successor's receipt.
    expectContractError(() => t.call(AllocatorFns.reject, { id: 1n }, [ADMIN]), 13);
    expect(t.receipt()?.outcome).toBe("Held");
    t.call(AllocatorFns.reject, { id: 2n }, [ADMIN]);
    expect(t.call(AllocatorFns.fee_credit, { payee: STRANGER })).toBe(FEE);
    expectContractError(() => t.call(AllocatorFns.mark_stuck, { id: 42n }, [ADMIN]), 13);
  });
});

describe("allocator reserve and sweep", () => {
  it("reserve allocates with method reserved and creates no receipt", () => {
    const t = setup();
    expectAuthError(() => t.call(AllocatorFns.reserve, { label: "core", owner: OWNER }, [OWNER]), ADMIN);
    const from = t.host.events.length;
    t.call(AllocatorFns.reserve, { label: "core", owner: OWNER }, [ADMIN]);
    expect(t.namespace("core")).toMatchObject({ label: "core", owner: OWNER, method: "reserved" });
    expect(t.receipt("core")).toBeNull();
    expect(t.events(from)).toEqual([]);
    expect(t.balanceOf(t.allocator)).toBe(0n);
    expectContractError(() => t.call(AllocatorFns.reserve, { label: "core", owner: OWNER }, [ADMIN]), 4);
    t.announce("paid");
    expectContractError(() => t.call(AllocatorFns.reserve, { label: "paid", owner: OWNER }, [ADMIN]), 4);
  });

  it("sweep pays only what nobody is owed", () => {
    const t = setup();
    expect(t.call(AllocatorFns.sweep, { recipient: SWEEP_TO }, [ADMIN])).toBe(0n);
    t.announce("held"); // held fee
    t.announce("gone");
    t.call(AllocatorFns.withdraw, { id: 2n }, [CLAIMANT]); // fee credit 80%, 20% already paid out
    t.call(AllocatorFns.object, { objector: OBJECTOR, id: 1n, basis: [], bond: 333n }, [OBJECTOR]); // live bond
    t.call(AllocatorFns.object, { objector: OBJECTOR2, id: 1n, basis: [], bond: 111n }, [OBJECTOR2]);
    t.call(AllocatorFns.dismiss_objection, { id: 1n, objector: OBJECTOR2 }, [ADMIN]); // bond credit
    const owed = FEE + (FEE * 8n) / 10n + 333n + 111n;
    expect(t.balanceOf(t.allocator)).toBe(owed);
    expect(t.call(AllocatorFns.sweep, { recipient: SWEEP_TO }, [ADMIN])).toBe(0n);
    mint(t.host, t.token, t.allocator, 12_345n); // a stray payment
    expectAuthError(() => t.call(AllocatorFns.sweep, { recipient: SWEEP_TO }, [STRANGER]), ADMIN);
    const from = t.host.events.length;
    expect(t.call(AllocatorFns.sweep, { recipient: SWEEP_TO }, [ADMIN])).toBe(12_345n);
    expect(t.events(from)).toEqual([{ type: "fee_sweep", data: { recipient: SWEEP_TO, amount: 12_345n } }]);
    expect(t.balanceOf(SWEEP_TO)).toBe(12_345n);
    const again = t.host.events.length;
    expect(t.call(AllocatorFns.sweep, { recipient: SWEEP_TO }, [ADMIN])).toBe(0n);
    expect(t.events(again)).toEqual([]);
    // Everything owed is still payable, down to zero.
    t.call(AllocatorFns.claim_fee_credit, { payee: CLAIMANT });
    t.call(AllocatorFns.claim_bond_credit, { payee: CLAIMANT });
    t.call(AllocatorFns.reject, { id: 1n }, [ADMIN]);
    t.call(AllocatorFns.claim_fee_credit, { payee: CLAIMANT });
    t.call(AllocatorFns.claim_bond_credit, { payee: OBJECTOR });
    expect(t.balanceOf(t.allocator)).toBe(0n);
    // Rejected in full, withdrawn at 80%, plus the forfeited bond of the dismissed objection.
    expect(t.balanceOf(CLAIMANT)).toBe(FUNDS - FEE / 5n + 111n);
    expect(t.balanceOf(TREASURY)).toBe(FEE / 5n);
  });
});

describe("allocator failure rollback", () => {
  it("an announce the claimant cannot pay leaves no claim, event or balance change", () => {
    const t = setup({ fee: FUNDS + 1n });
    const from = t.host.events.length;
    expectContractError(() => t.announce(), 10);
    expect(t.host.eventsSince(from)).toEqual([]);
    expect(t.claim(1n)).toBeNull();
    expect(t.receipt()).toBeNull();
    expect(t.balanceOf(CLAIMANT)).toBe(FUNDS);
  });

  it("a transaction failing after a successful announce rolls back its events, transfers and storage", () => {
    const t = setup();
    const from = t.host.events.length;
    const announce = AllocatorFns.announce.encodeArgs({
      claimant: CLAIMANT,
      label: "acme",
      basis: [],
      evidence: [],
      fee: t.policy,
    });
    const caller = t.host.deploy("failing_caller");
    expectContractError(
      () => t.host.invoke(caller, "run", [address.encode(t.allocator), ...announce], [CLAIMANT]),
      99,
    );
    expect(t.host.eventsSince(from)).toEqual([]);
    expect(t.balanceOf(CLAIMANT)).toBe(FUNDS);
    expect(t.balanceOf(t.allocator)).toBe(0n);
    expect(t.claim(1n)).toBeNull();
    expect(t.receipt()).toBeNull();
    // The id counter rolled back too.
    expect(t.announce()).toBe(1n);
  });
});
