// The one place a chain event becomes a change event (docs/webhooks.md "From chain events"). A raw event is not
// announced by itself: CHAIN_EVENT_CHANGES says, for every naming event the protocol defines, which change types
// it may produce (none for most), and `changesOf` builds them from the event and what the projection knew. A new
// chain event fails the type check here until someone decides what, if anything, it announces.
import type { ContractEvent, EventName } from "@namereg/protocol";
import { subnamePolicyToHttp } from "@namereg/protocol";
import type { ChangeDraft, ChangeType } from "../changes/catalogue.ts";
import type { ArchiveRow } from "./decode.ts";
import type { Keys } from "./working-set.ts";

export const CHAIN_EVENT_CHANGES: { readonly [E in EventName]: readonly ChangeType[] } = {
  // Registry: allocation is announced by the claim that won it (claim.awarded) or not at all (reserved);
  // routing, upgrades and transfer offers change nothing an app resolves.
  ns_v1: [],
  ns: [],
  dep_reg: [],
  att_reg: [],
  dep_res: [],
  set_res: [],
  reg_upg: [],
  res_upg: [],
  locked: ["namespace.policy_changed"],
  prop_tr: [],
  acc_tr: ["namespace.transferred"],
  canc_tr: [],
  // Registrar
  name_v1: ["name.issued", "name.renewed", "name.transferred", "name.reclaimed", "name.address_changed"],
  xfer_v1: [],
  sub_pol: ["namespace.policy_changed"],
  sub_v1: ["subname.created", "subname.removed"],
  // Resolver
  addr_v1: ["record.payment_changed"],
  text_v1: ["record.text_changed"],
  pay_v1: ["record.payment_changed"],
  disp_v1: [],
  chn_pol: ["namespace.policy_changed"],
  chn_v1: ["record.chain_address_changed"],
  // Primary
  set_pri: ["primary.changed"],
  clr_pri: ["primary.changed"],
  // Lookup
  upg_prop: [],
  upg_exec: [],
  upg_canc: [],
  // Allocator: claims; withdrawals, rejections, expiries, responses and the fee's bookkeeping are not announced.
  clm_ann: ["claim.announced"],
  clm_obj: ["claim.objected"],
  obj_end: [],
  clm_resp: [],
  clm_awd: ["claim.awarded"],
  clm_wd: [],
  clm_rej: [],
  clm_exp: [],
  fee_cfg: [],
  fee_paid: [],
  fee_done: [],
  fee_cred: [],
  fee_pull: [],
  fee_sweep: [],
};

/** What the batch knew around the event, beyond the event itself. */
export interface ChangeContext {
  /** The namespace label the projection filed the event under; null when it did not know one. */
  readonly namespace: string | null;
  /** The node of the namespace the emitting contract serves (registrar, resolver); null for the others. */
  readonly namespaceNode: string | null;
  /** The full name of a name or subname node, as the mirror has it after the event; null when unknown. */
  nameOf(node: string): string | null;
  /** For primary events: the address's primary name before the event. */
  readonly previousPrimary: string | null;
}

/** Rows `changesOf` reads beyond what the projections load: the name a resolver record belongs to. */
export function changeKeys(event: ContractEvent, keys: Keys): void {
  switch (event.type) {
    case "addr_v1":
    case "text_v1":
    case "pay_v1":
    case "chn_v1":
      keys.names.add(event.node);
      keys.subnames.add(event.node);
      return;
    default:
      return;
  }
}

const isoOfUnix = (seconds: bigint): string => new Date(Number(seconds) * 1000).toISOString();
/** Name expiry: 0 means none. */
const expiryOf = (seconds: bigint): string | null => (seconds === 0n ? null : isoOfUnix(seconds));
/** The namespace of a full name is its last label. */
const namespaceOfName = (name: string): string => name.slice(name.lastIndexOf(".") + 1);

/** The change events one applied chain event produces (none for most). Call only once it projected cleanly. */
export function changesOf(event: ContractEvent, row: ArchiveRow, ctx: ChangeContext): ChangeDraft[] {
  const base = { ledger: row.ledger, txHash: row.txHash, eventId: row.id, at: row.at };
  const ns = ctx.namespace;
  switch (event.type) {
    case "name_v1": {
      if (ns === null) return [];
      const { data } = event;
      const about = { ...base, namespace: ns, name: `${data.label}.${ns}`, node: event.node };
      switch (data.action) {
        case "issue":
          return [
            {
              ...about,
              type: "name.issued",
              data: {
                holder: data.holder,
                address: data.address,
                expiresAt: expiryOf(data.expiresAt),
                generation: event.generation.toString(),
              },
            },
          ];
        case "renew":
          return [{ ...about, type: "name.renewed", data: { expiresAt: expiryOf(data.expiresAt) } }];
        case "transfer":
          return [
            { ...about, type: "name.transferred", data: { holder: data.holder, address: data.address } },
          ];
        case "reclaim":
          return [{ ...about, type: "name.reclaimed", data: {} }];
        case "address":
          return [{ ...about, type: "name.address_changed", data: { address: data.address } }];
      }
      return [];
    }
    case "sub_v1": {
      const parent = ctx.nameOf(event.data.parent);
      if (ns === null || parent === null) return [];
      const about = { ...base, namespace: ns, name: `${event.data.child}.${parent}`, node: event.node };
      return event.data.action === "create"
        ? [
            {
              ...about,
              type: "subname.created",
              data: { parent, child: event.data.child, address: event.data.address },
            },
          ]
        : [{ ...about, type: "subname.removed", data: { parent, child: event.data.child } }];
    }
    case "addr_v1":
    case "text_v1":
    case "pay_v1":
    case "chn_v1": {
      const name = ctx.nameOf(event.node);
      if (ns === null || name === null) return [];
      const about = { ...base, namespace: ns, name, node: event.node };
      if (event.type === "addr_v1") {
        return [
          { ...about, type: "record.payment_changed", data: { record: "address", address: event.data } },
        ];
      }
      if (event.type === "pay_v1") {
        return [
          {
            ...about,
            type: "record.payment_changed",
            data: { record: "payment", address: event.data.address, memo: event.data.memo },
          },
        ];
      }
      if (event.type === "text_v1")
        return [{ ...about, type: "record.text_changed", data: { key: event.data } }];
      return [{ ...about, type: "record.chain_address_changed", data: { network: event.data.network } }];
    }
    case "set_pri":
    case "clr_pri": {
      const primary = event.type === "set_pri" ? event.data.name : null;
      const named = primary ?? ctx.previousPrimary;
      if (named === null) return [];
      return [
        {
          ...base,
          namespace: namespaceOfName(named),
          name: named,
          type: "primary.changed",
          data: { address: event.address, primary, previous: ctx.previousPrimary },
        },
      ];
    }
    case "sub_pol":
    case "chn_pol": {
      if (ns === null) return [];
      const about = {
        ...base,
        namespace: ns,
        ...(ctx.namespaceNode === null ? {} : { node: ctx.namespaceNode }),
      };
      return [
        {
          ...about,
          type: "namespace.policy_changed",
          data:
            event.type === "sub_pol"
              ? {
                  policy: "subnames",
                  subnames: subnamePolicyToHttp(event.data.policy) as
                    | "enabled"
                    | "creation-disabled"
                    | "suspended",
                }
              : { policy: "networks", networks: event.data.networks },
        },
      ];
    }
    case "locked":
      if (ns === null) return [];
      return [
        {
          ...base,
          namespace: ns,
          node: event.node,
          type: "namespace.policy_changed",
          data: { policy: "locked" },
        },
      ];
    case "acc_tr":
      if (ns === null) return [];
      return [
        {
          ...base,
          namespace: ns,
          node: event.node,
          type: "namespace.transferred",
          data: { from: event.data.from, to: event.data.to },
        },
      ];
    case "clm_ann":
      return [
        {
          ...base,
          namespace: event.data.label,
          type: "claim.announced",
          data: {
            claimId: event.id.toString(),
            claimant: event.data.claimant,
            deadline: isoOfUnix(event.data.deadline),
          },
        },
      ];
    case "clm_obj":
      if (ns === null) return [];
      return [
        {
          ...base,
          namespace: ns,
          type: "claim.objected",
          data: { claimId: event.id.toString(), objector: event.data.objector },
        },
      ];
    case "clm_awd":
      if (ns === null) return [];
      return [{ ...base, namespace: ns, type: "claim.awarded", data: { claimId: event.id.toString() } }];
    default:
      return [];
  }
}
