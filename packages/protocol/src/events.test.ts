import { Keypair, StrKey, xdr } from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import {
  CONTRACT_OF_EVENT,
  type ContractEvent,
  decodeEvent,
  decodeEventXdr,
  EVENT_NAMES,
  EventDecodeError,
  type EventName,
  type EventOfType,
  encodeEvent,
  subjectOfEvent,
} from "./events.ts";
import { claimFeeKey, nameNode, namespaceNode, subnameNode } from "./hash.ts";
import { scValToBase64 } from "./scval.ts";

const G1 = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 1)).publicKey();
const G2 = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 2)).publicKey();
const C1 = StrKey.encodeContract(Buffer.alloc(32, 3));
const NS = namespaceNode("acme");
const ALICE = nameNode("alice", "acme");
const HASH = "ab".repeat(32);
const TOKEN = StrKey.encodeContract(Buffer.alloc(32, 4));

// One sample per event; the mapped type makes a missing event a type error.
const SAMPLES: { [K in EventName]: EventOfType<K> } = {
  ns_v1: { type: "ns_v1", node: NS, data: { label: "acme", owner: G1, resolver: C1, method: "allocate" } },
  ns: { type: "ns", node: NS, data: { owner: G1, resolver: null, method: "reserved" } },
  dep_reg: { type: "dep_reg", node: NS, data: C1 },
  att_reg: { type: "att_reg", node: NS, data: C1 },
  dep_res: { type: "dep_res", node: NS, data: C1 },
  set_res: { type: "set_res", node: NS, data: null },
  reg_upg: { type: "reg_upg", node: NS, data: C1 },
  res_upg: { type: "res_upg", node: NS, data: C1 },
  locked: { type: "locked", node: NS, data: null },
  prop_tr: { type: "prop_tr", node: NS, data: { to: G2, expires: 1_900_000_000n } },
  acc_tr: { type: "acc_tr", node: NS, data: { from: G1, to: G2 } },
  canc_tr: { type: "canc_tr", node: NS, data: null },
  name_v1: {
    type: "name_v1",
    node: ALICE,
    generation: 1n,
    data: { label: "alice", action: "issue", holder: G1, address: C1, expiresAt: 0n },
  },
  xfer_v1: {
    type: "xfer_v1",
    node: ALICE,
    generation: 2n,
    data: {
      label: "alice",
      action: "propose",
      holder: G1,
      to: G2,
      proposalExpires: 1_800_000_000n,
      expiresAt: 0n,
    },
  },
  sub_pol: { type: "sub_pol", data: { policy: "creation_disabled" } },
  sub_v1: {
    type: "sub_v1",
    node: subnameNode("pay", "alice", "acme"),
    generation: 3n,
    data: { parent: ALICE, child: "pay", action: "create", address: G2 },
  },
  addr_v1: { type: "addr_v1", node: ALICE, generation: 1n, data: G2 },
  text_v1: { type: "text_v1", node: ALICE, generation: 1n, data: "avatar" },
  pay_v1: { type: "pay_v1", node: ALICE, generation: 1n, data: { address: G2, memo: "invoice-7" } },
  disp_v1: { type: "disp_v1", node: ALICE, data: { address: G2 } },
  chn_pol: { type: "chn_pol", data: { networks: ["ethereum", "bitcoin"] } },
  chn_v1: { type: "chn_v1", node: ALICE, generation: 1n, data: { network: "ethereum" } },
  set_pri: { type: "set_pri", address: G1, data: { name: "alice.acme" } },
  clr_pri: { type: "clr_pri", address: G1, data: null },
  upg_prop: { type: "upg_prop", data: [HASH, 1_800_000_000n] },
  upg_exec: { type: "upg_exec", data: HASH },
  upg_canc: { type: "upg_canc", data: HASH },
  clm_ann: {
    type: "clm_ann",
    id: 7n,
    data: {
      id: 7n,
      label: "newco",
      claimant: G1,
      basis: ["trademark"],
      evidence: [{ label: "registration", url: "https://example.org/tm/1" }],
      state: "announced",
      announcedLedger: 120n,
      deadline: 1_800_000_000n,
      response: null,
      awardedAt: null,
    },
  },
  clm_obj: { type: "clm_obj", id: 7n, data: { objector: G2, basis: ["prior_use"], bond: 50_000_000n } },
  obj_end: { type: "obj_end", id: 7n, data: { objector: G2, reason: "dismissed" } },
  clm_resp: { type: "clm_resp", id: 7n, data: { response: "We hold the mark." } },
  clm_awd: { type: "clm_awd", id: 7n, data: null },
  clm_wd: { type: "clm_wd", id: 7n, data: null },
  clm_rej: { type: "clm_rej", id: 7n, data: null },
  clm_exp: { type: "clm_exp", id: 7n, data: null },
  fee_cfg: { type: "fee_cfg", data: { token: TOKEN, amount: 1_000_000_000n, recipient: G2 } },
  fee_paid: {
    type: "fee_paid",
    key: claimFeeKey("newco"),
    data: { label: "newco", claimant: G1, token: TOKEN, amount: 1_000_000_000n },
  },
  fee_done: {
    type: "fee_done",
    key: claimFeeKey("newco"),
    data: {
      label: "newco",
      token: TOKEN,
      recipient: G2,
      receipt: {
        claimant: G1,
        amount: 1_000_000_000n,
        outcome: "Withdrawn",
        refundAmount: 800_000_000n,
        treasuryAmount: 200_000_000n,
      },
    },
  },
  fee_cred: { type: "fee_cred", data: { payee: G1, amount: 800_000_000n } },
  fee_pull: { type: "fee_pull", data: { payee: G1, amount: 800_000_000n } },
  fee_sweep: { type: "fee_sweep", data: { recipient: G2, amount: 5n } },
};

function roundTripXdr(event: ContractEvent): ContractEvent | null {
  const { topics, data } = encodeEvent(event);
  // Through base64, as the indexer receives them from getEvents.
  return decodeEventXdr(topics.map(scValToBase64), scValToBase64(data));
}

describe("event codecs", () => {
  it.each(EVENT_NAMES)("%s round-trips through XDR", (name) => {
    const sample = SAMPLES[name];
    expect(roundTripXdr(sample)).toEqual(sample);
  });

  it("covers every event named in docs/contracts.md", () => {
    expect([...EVENT_NAMES].sort()).toEqual(
      [
        "ns_v1",
        "ns",
        "dep_reg",
        "att_reg",
        "dep_res",
        "set_res",
        "reg_upg",
        "res_upg",
        "locked",
        "prop_tr",
        "acc_tr",
        "canc_tr",
        "name_v1",
        "xfer_v1",
        "sub_pol",
        "sub_v1",
        "addr_v1",
        "text_v1",
        "pay_v1",
        "disp_v1",
        "chn_pol",
        "chn_v1",
        "set_pri",
        "clr_pri",
        "upg_prop",
        "upg_exec",
        "upg_canc",
        "clm_ann",
        "clm_obj",
        "obj_end",
        "clm_resp",
        "clm_awd",
        "clm_wd",
        "clm_rej",
        "clm_exp",
        "fee_cfg",
        "fee_paid",
        "fee_done",
        "fee_cred",
        "fee_pull",
        "fee_sweep",
      ].sort(),
    );
  });

  it("encodes topics in the spec's order with the name symbol first and structs as sorted maps", () => {
    const { topics, data } = encodeEvent(SAMPLES.name_v1);
    expect(topics.map((t) => t.type)).toEqual(["scvSymbol", "scvBytes", "scvU64"]);
    expect(data.type).toBe("scvMap");
    if (data.type !== "scvMap" || data.map === null) throw new Error("map expected");
    expect(data.map.map((e) => (e.key.type === "scvSymbol" ? e.key.sym.toString() : "?"))).toEqual([
      "action",
      "address",
      "expires_at",
      "holder",
      "label",
    ]);
  });

  it("returns null for events that are not naming events", () => {
    const transfer = [xdr.ScVal.scvSymbol("transfer"), xdr.ScVal.scvSymbol("x")];
    expect(decodeEvent(transfer, xdr.ScVal.scvVoid())).toBeNull();
    expect(decodeEvent([xdr.ScVal.scvU32(1)], xdr.ScVal.scvVoid())).toBeNull();
    expect(decodeEvent([], xdr.ScVal.scvVoid())).toBeNull();
  });

  describe("rejects malformed naming events with EventDecodeError", () => {
    const good = encodeEvent(SAMPLES.name_v1);
    const cases: [string, () => unknown][] = [
      ["missing generation topic", () => decodeEvent(good.topics.slice(0, 2), good.data)],
      ["extra topic", () => decodeEvent([...good.topics, xdr.ScVal.scvVoid()], good.data)],
      [
        "node of 31 bytes",
        () =>
          decodeEvent(
            [good.topics[0] as xdr.ScVal, xdr.ScVal.scvBytes(Buffer.alloc(31)), good.topics[2] as xdr.ScVal],
            good.data,
          ),
      ],
      [
        "generation as u32",
        () =>
          decodeEvent(
            [good.topics[0] as xdr.ScVal, good.topics[1] as xdr.ScVal, xdr.ScVal.scvU32(1)],
            good.data,
          ),
      ],
      ["data not a map", () => decodeEvent(good.topics, xdr.ScVal.scvVoid())],
      ["unknown action", () => decodeEvent(good.topics, encodeWith("action", xdr.ScVal.scvSymbol("steal")))],
      [
        "upper-case label",
        () => decodeEvent(good.topics, encodeWith("label", xdr.ScVal.scvBytes(Buffer.from("Alice")))),
      ],
      ["missing field", () => decodeEvent(good.topics, withoutField("holder"))],
      ["not base64 XDR", () => decodeEventXdr(["!!!"], "AAAA")],
    ];
    function entries(): xdr.ScMapEntry[] {
      if (good.data.type !== "scvMap" || good.data.map === null) throw new Error("map expected");
      return good.data.map;
    }
    function encodeWith(key: string, val: xdr.ScVal): xdr.ScVal {
      return xdr.ScVal.scvMap(
        entries().map((e) =>
          e.key.type === "scvSymbol" && e.key.sym.toString() === key
            ? new xdr.ScMapEntry({ key: e.key, val })
            : e,
        ),
      );
    }
    function withoutField(key: string): xdr.ScVal {
      return xdr.ScVal.scvMap(
        entries().filter((e) => !(e.key.type === "scvSymbol" && e.key.sym.toString() === key)),
      );
    }
    it.each(cases)("%s", (_, run) => {
      expect(run).toThrow(EventDecodeError);
    });

    it("names the event and the offending path", () => {
      try {
        decodeEvent(good.topics, encodeWith("action", xdr.ScVal.scvSymbol("steal")));
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(EventDecodeError);
        expect((err as EventDecodeError).eventName).toBe("name_v1");
        expect((err as Error).message).toContain("data.action");
      }
    });
  });
});

describe("event owners and subjects", () => {
  it("records the emitting contract of every event", () => {
    const byContract: Record<string, string[]> = {};
    for (const name of EVENT_NAMES) {
      const contract = CONTRACT_OF_EVENT[name];
      byContract[contract] = [...(byContract[contract] ?? []), name];
    }
    expect(byContract).toEqual({
      registry: [
        "ns_v1",
        "ns",
        "dep_reg",
        "att_reg",
        "dep_res",
        "set_res",
        "reg_upg",
        "res_upg",
        "locked",
        "prop_tr",
        "acc_tr",
        "canc_tr",
      ],
      registrar: ["name_v1", "xfer_v1", "sub_pol", "sub_v1"],
      resolver: ["addr_v1", "text_v1", "pay_v1", "disp_v1", "chn_pol", "chn_v1"],
      primary: ["set_pri", "clr_pri"],
      lookup: ["upg_prop", "upg_exec", "upg_canc"],
      allocator: [
        "clm_ann",
        "clm_obj",
        "obj_end",
        "clm_resp",
        "clm_awd",
        "clm_wd",
        "clm_rej",
        "clm_exp",
        "fee_cfg",
        "fee_paid",
        "fee_done",
        "fee_cred",
        "fee_pull",
        "fee_sweep",
      ],
    });
  });

  const payee = Keypair.random().publicKey();
  const node = "ab".repeat(32);
  it.each<[string, ContractEvent, string | null]>([
    ["a node", { type: "locked", node, data: null }, node],
    ["an address", { type: "clr_pri", address: payee, data: null }, payee],
    ["a claim id", { type: "clm_wd", id: 42n, data: null }, "42"],
    ["a credit's payee", { type: "fee_pull", data: { payee, amount: 1n } }, payee],
    ["a sweep's recipient", { type: "fee_sweep", data: { recipient: payee, amount: 1n } }, payee],
    ["nothing for a contract-wide setting", { type: "sub_pol", data: { policy: "enabled" } }, null],
  ])("the subject of an event is %s", (_, event, subject) => {
    expect(subjectOfEvent(event)).toBe(subject);
  });
});
