// Contract events in words (docs/contracts.md "Events"): what an archived event's type says happened, and which
// contract emits it, for the pages that list events (a contract's, a transaction's, a name's timeline). Only the type
// is read, never the data. The lists are the page's own: the protocol package, which defines them, would bring the
// SDK into the first bundle (event-words.test.ts holds them to its definitions).
/** An archived contract event by its type (docs/contracts.md "Events"). Only the type is read: never the data. */
export function eventType(type: string | null): string {
  const words: Record<string, string> = {
    ns_v1: "Namespace allocated",
    ns: "Namespace allocated (legacy event)",
    name_v1: "Name changed at the registrar (issue, transfer, renewal, reclaim or address)",
    name: "Name changed at the registrar (legacy event)",
    xfer_v1: "Transfer offered or cancelled",
    sub_v1: "Subname created or removed",
    addr_v1: "Address record set",
    text_v1: "A text record changed",
    pay_v1: "Payment instruction set",
    disp_v1: "Display name set",
    chn_v1: "A network address changed",
    // The rest of docs/contracts.md "Events": a contract page lists them all, a name's history none of them.
    dep_reg: "New registrar deployed for a namespace",
    att_reg: "Another registrar attached to a namespace",
    dep_res: "New resolver deployed for a namespace",
    set_res: "Resolver of a namespace set or removed",
    reg_upg: "Registrar's code upgraded",
    res_upg: "Resolver's code upgraded",
    locked: "Namespace locked: its routing is frozen for good",
    prop_tr: "Namespace transfer offered",
    acc_tr: "Namespace transfer accepted",
    canc_tr: "Namespace transfer cancelled",
    sub_pol: "Subname policy changed",
    chn_pol: "Networks for addresses changed",
    set_pri: "Primary name set",
    clr_pri: "Primary name cleared",
    upg_prop: "Code upgrade proposed",
    upg_exec: "Code upgrade carried out",
    upg_canc: "Code upgrade cancelled",
    clm_ann: "Claim announced",
    clm_obj: "Objection to a claim",
    obj_end: "Objection settled",
    clm_resp: "Claimant responded",
    clm_awd: "Claim awarded",
    clm_wd: "Claim withdrawn",
    clm_rej: "Claim rejected",
    clm_exp: "Claim expired",
    fee_cfg: "Claim fee set",
    fee_paid: "Claim fee paid",
    fee_done: "Claim fee passed on",
    fee_cred: "Claim fee credited back",
    fee_pull: "Claim fee credit withdrawn",
    fee_sweep: "Claim fees swept to the recipient",
  };
  if (type === null) return "Event without a type";
  return words[type] ?? `Contract event ${type}`;
}

/**
 * Which contract emits an event of this type (docs/contracts.md "Events": each type is one contract's), said as
 * what it is — "A namespace's registrar" — rather than its C… id; null for a type it does not list.
 */
export function eventContract(type: string | null): string | null {
  const kinds: readonly [string, readonly string[]][] = [
    [
      "The registry",
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
      ],
    ],
    ["A namespace's registrar", ["name_v1", "name", "xfer_v1", "sub_pol", "sub_v1"]],
    ["A namespace's resolver", ["addr_v1", "text_v1", "pay_v1", "disp_v1", "chn_pol", "chn_v1"]],
    ["The primary-name contract", ["set_pri", "clr_pri"]],
    ["The lookup contract", ["upg_prop", "upg_exec", "upg_canc"]],
    [
      "The claim allocator",
      [
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
    ],
  ];
  if (type === null) return null;
  return kinds.find(([, types]) => types.includes(type))?.[0] ?? null;
}
