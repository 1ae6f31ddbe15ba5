// The chain → change mapping, table-driven: each naming event is written in its real on-chain layout (protocol's
// encodeEvent), read back as the indexer reads it (decodeRawEvent), and mapped; the table of what each raw event
// may produce (CHAIN_EVENT_CHANGES) is checked against what it does produce, and every chain change type is
// reached by some event.
import {
  type ContractEvent,
  EVENT_NAMES,
  encodeEvent,
  nameNode,
  namespaceNode,
  subnameNode,
} from "@namereg/protocol";
import { Keypair } from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { CHANGE_DATA, CHANGE_TYPES, type ChangeDraft, changeEventSchema } from "../changes/catalogue.ts";
import { CHAIN_EVENT_CHANGES, type ChangeContext, changesOf } from "./change-mapping.ts";
import { decodeRawEvent } from "./decode.ts";

const account = (n: number) => Keypair.fromRawEd25519Seed(Buffer.alloc(32, n)).publicKey();
const HOLDER = account(1);
const OTHER = account(2);
const ACME = namespaceNode("acme");
const ALICE = nameNode("alice", "acme");
const PAY = subnameNode("alice", "acme", "pay");
const TX = "ab".repeat(32);
const LEDGER = 77;
const CLOSED = "2026-01-02T03:04:05Z";
const EVENT_ID = "0000000330712481792-0000000003";
const CONTRACT = `C${"A".repeat(55)}`;

/** The event as it travels: encoded to XDR, then decoded as the indexer does. */
function throughTheChain(event: ContractEvent) {
  const { topics, data } = encodeEvent(event);
  const incoming = decodeRawEvent({
    type: "contract",
    ledger: LEDGER,
    ledgerClosedAt: CLOSED,
    contractId: CONTRACT,
    id: EVENT_ID,
    txHash: TX,
    inSuccessfulContractCall: true,
    topic: topics.map((t) => t.toXDR("base64")),
    value: data.toXDR("base64"),
  });
  if (incoming.decoded.kind !== "naming") throw new Error(`${event.type} did not decode`);
  return { event: incoming.decoded.event, row: incoming.row };
}

const NAMES: Record<string, string> = { [ALICE]: "alice.acme", [PAY]: "pay.alice.acme" };
const context = (over: Partial<ChangeContext> = {}): ChangeContext => ({
  namespace: "acme",
  namespaceNode: ACME,
  nameOf: (node) => NAMES[node] ?? null,
  previousPrimary: null,
  ...over,
});

const common = { ledger: LEDGER, txHash: TX, eventId: EVENT_ID, at: new Date(CLOSED) };
const expiry = 1_900_000_000n;
const expiryIso = new Date(1_900_000_000 * 1000).toISOString();

interface Case {
  readonly what: string;
  readonly event: ContractEvent;
  readonly ctx?: Partial<ChangeContext>;
  readonly expected: ChangeDraft[];
}

const nameChange = (action: "issue" | "renew" | "transfer" | "reclaim" | "address", expiresAt = expiry) =>
  ({
    type: "name_v1",
    node: ALICE,
    generation: 3n,
    data: { label: "alice", action, holder: HOLDER, address: OTHER, expiresAt },
  }) as const;
const aboutAlice = { ...common, namespace: "acme", name: "alice.acme", node: ALICE };

const CASES: Case[] = [
  {
    what: "an issuance",
    event: nameChange("issue"),
    expected: [
      {
        ...aboutAlice,
        type: "name.issued",
        data: { holder: HOLDER, address: OTHER, expiresAt: expiryIso, generation: "3" },
      },
    ],
  },
  {
    what: "an issuance without expiry",
    event: nameChange("issue", 0n),
    expected: [
      {
        ...aboutAlice,
        type: "name.issued",
        data: { holder: HOLDER, address: OTHER, expiresAt: null, generation: "3" },
      },
    ],
  },
  {
    what: "a renewal",
    event: nameChange("renew"),
    expected: [{ ...aboutAlice, type: "name.renewed", data: { expiresAt: expiryIso } }],
  },
  {
    what: "a transfer",
    event: nameChange("transfer"),
    expected: [{ ...aboutAlice, type: "name.transferred", data: { holder: HOLDER, address: OTHER } }],
  },
  {
    what: "a reclaim",
    event: nameChange("reclaim"),
    expected: [{ ...aboutAlice, type: "name.reclaimed", data: {} }],
  },
  {
    what: "a pay-to address",
    event: nameChange("address"),
    expected: [{ ...aboutAlice, type: "name.address_changed", data: { address: OTHER } }],
  },
  {
    what: "a resolver payment",
    event: { type: "pay_v1", node: ALICE, generation: 3n, data: { address: OTHER, memo: "inv-7" } },
    expected: [
      {
        ...aboutAlice,
        type: "record.payment_changed",
        data: { record: "payment", address: OTHER, memo: "inv-7" },
      },
    ],
  },
  {
    what: "a resolver address on a subname",
    event: { type: "addr_v1", node: PAY, generation: 1n, data: OTHER },
    expected: [
      {
        ...common,
        namespace: "acme",
        name: "pay.alice.acme",
        node: PAY,
        type: "record.payment_changed",
        data: { record: "address", address: OTHER },
      },
    ],
  },
  {
    what: "a text record (the key only)",
    event: { type: "text_v1", node: ALICE, generation: 3n, data: "avatar" },
    expected: [{ ...aboutAlice, type: "record.text_changed", data: { key: "avatar" } }],
  },
  {
    what: "a network address",
    event: { type: "chn_v1", node: ALICE, generation: 3n, data: { network: "ethereum" } },
    expected: [{ ...aboutAlice, type: "record.chain_address_changed", data: { network: "ethereum" } }],
  },
  {
    what: "a record of a node the mirror cannot name",
    event: { type: "text_v1", node: "cd".repeat(32), generation: 1n, data: "url" },
    expected: [],
  },
  {
    what: "a primary name set",
    event: { type: "set_pri", address: HOLDER, data: { name: "alice.acme" } },
    ctx: { namespace: null, namespaceNode: null, previousPrimary: "old.plain" },
    expected: [
      {
        ...common,
        namespace: "acme",
        name: "alice.acme",
        type: "primary.changed",
        data: { address: HOLDER, primary: "alice.acme", previous: "old.plain" },
      },
    ],
  },
  {
    what: "a primary name cleared (filed under the name it had)",
    event: { type: "clr_pri", address: HOLDER, data: null },
    ctx: { namespace: null, namespaceNode: null, previousPrimary: "alice.acme" },
    expected: [
      {
        ...common,
        namespace: "acme",
        name: "alice.acme",
        type: "primary.changed",
        data: { address: HOLDER, primary: null, previous: "alice.acme" },
      },
    ],
  },
  {
    what: "a primary name cleared that the mirror never knew",
    event: { type: "clr_pri", address: HOLDER, data: null },
    ctx: { namespace: null, namespaceNode: null },
    expected: [],
  },
  {
    what: "a subname created",
    event: {
      type: "sub_v1",
      node: PAY,
      generation: 1n,
      data: { parent: ALICE, child: "pay", action: "create", address: OTHER },
    },
    expected: [
      {
        ...common,
        namespace: "acme",
        name: "pay.alice.acme",
        node: PAY,
        type: "subname.created",
        data: { parent: "alice.acme", child: "pay", address: OTHER },
      },
    ],
  },
  {
    what: "a subname removed",
    event: {
      type: "sub_v1",
      node: PAY,
      generation: 1n,
      data: { parent: ALICE, child: "pay", action: "remove", address: OTHER },
    },
    expected: [
      {
        ...common,
        namespace: "acme",
        name: "pay.alice.acme",
        node: PAY,
        type: "subname.removed",
        data: { parent: "alice.acme", child: "pay" },
      },
    ],
  },
  {
    what: "a subname policy (in its HTTP form)",
    event: { type: "sub_pol", data: { policy: "creation_disabled" } },
    expected: [
      {
        ...common,
        namespace: "acme",
        node: ACME,
        type: "namespace.policy_changed",
        data: { policy: "subnames", subnames: "creation-disabled" },
      },
    ],
  },
  {
    what: "a network allowlist",
    event: { type: "chn_pol", data: { networks: ["ethereum", "solana"] } },
    expected: [
      {
        ...common,
        namespace: "acme",
        node: ACME,
        type: "namespace.policy_changed",
        data: { policy: "networks", networks: ["ethereum", "solana"] },
      },
    ],
  },
  {
    what: "a lock",
    event: { type: "locked", node: ACME, data: null },
    ctx: { namespaceNode: null },
    expected: [
      {
        ...common,
        namespace: "acme",
        node: ACME,
        type: "namespace.policy_changed",
        data: { policy: "locked" },
      },
    ],
  },
  {
    what: "an accepted namespace transfer",
    event: { type: "acc_tr", node: ACME, data: { from: HOLDER, to: OTHER } },
    ctx: { namespaceNode: null },
    expected: [
      {
        ...common,
        namespace: "acme",
        node: ACME,
        type: "namespace.transferred",
        data: { from: HOLDER, to: OTHER },
      },
    ],
  },
  {
    what: "a claim announced (filed under the claimed label)",
    event: {
      type: "clm_ann",
      id: 9n,
      data: {
        id: 9n,
        label: "newco",
        claimant: HOLDER,
        basis: ["trademark"],
        evidence: [{ label: "registration", url: "https://example.com/tm" }],
        state: "announced",
        announcedLedger: 70n,
        deadline: expiry,
        response: null,
        awardedAt: null,
      },
    },
    ctx: { namespace: "newco", namespaceNode: null },
    expected: [
      {
        ...common,
        namespace: "newco",
        type: "claim.announced",
        data: { claimId: "9", claimant: HOLDER, deadline: expiryIso },
      },
    ],
  },
  {
    what: "an objection",
    event: { type: "clm_obj", id: 9n, data: { objector: OTHER, basis: ["prior_use"], bond: 10n } },
    ctx: { namespace: "newco", namespaceNode: null },
    expected: [
      { ...common, namespace: "newco", type: "claim.objected", data: { claimId: "9", objector: OTHER } },
    ],
  },
  {
    what: "an award",
    event: { type: "clm_awd", id: 9n, data: null },
    ctx: { namespace: "newco", namespaceNode: null },
    expected: [{ ...common, namespace: "newco", type: "claim.awarded", data: { claimId: "9" } }],
  },
  {
    what: "a withdrawal (not announced)",
    event: { type: "clm_wd", id: 9n, data: null },
    ctx: { namespace: "newco", namespaceNode: null },
    expected: [],
  },
  {
    what: "a transfer offer (not announced)",
    event: {
      type: "xfer_v1",
      node: ALICE,
      generation: 3n,
      data: {
        label: "alice",
        action: "propose",
        holder: HOLDER,
        to: OTHER,
        proposalExpires: expiry,
        expiresAt: 0n,
      },
    },
    expected: [],
  },
  {
    what: "a name change of a namespace the mirror does not know",
    event: nameChange("renew"),
    ctx: { namespace: null },
    expected: [],
  },
];

describe("chain events → change events", () => {
  it.each(CASES)("$what", ({ event, ctx, expected }) => {
    const { event: decoded, row } = throughTheChain(event);
    const drafts = changesOf(decoded, row, context(ctx));
    expect(drafts).toEqual(expected);
    for (const d of drafts) {
      expect(CHAIN_EVENT_CHANGES[event.type]).toContain(d.type);
      // The draft, as apps will see it, passes the catalogue's own schema for its type.
      const { type, data, at, ...about } = d;
      const payload = {
        type,
        timestamp: new Date().toISOString(),
        data: { ...about, at: at?.toISOString() ?? null, backfill: false, ...data },
      };
      expect(changeEventSchema(d.type).safeParse(payload).error).toBeUndefined();
    }
  });

  it("declares every naming event, and reaches every chain change type", () => {
    expect(Object.keys(CHAIN_EVENT_CHANGES).sort()).toEqual([...EVENT_NAMES].sort());
    const watcherTypes = ["market.listed", "market.sold", "billing.paid", "billing.lapsed"];
    const declared = new Set(Object.values(CHAIN_EVENT_CHANGES).flat());
    expect([...declared].sort()).toEqual(CHANGE_TYPES.filter((t) => !watcherTypes.includes(t)).sort());
    const produced = new Set(
      CASES.flatMap((c) => {
        const { event, row } = throughTheChain(c.event);
        return changesOf(event, row, context(c.ctx)).map((d) => d.type);
      }),
    );
    expect([...produced].sort()).toEqual([...declared].sort());
    expect(Object.keys(CHANGE_DATA)).toHaveLength(20);
  });
});
