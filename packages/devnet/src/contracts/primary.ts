// Primary: the cross-namespace primary name of an address. Setting one requires that the name currently
// resolves (through the lookup contract) to that very address, so a primary name is never a bare claim.
import { address, CONTRACT_ERRORS as E, encodeEvent, LookupFns, PrimaryFns, string } from "@namereg/protocol";
import { ContractError } from "../host/contract.ts";
import { callFn, defineContract, emitEvent, key, typed } from "./define.ts";

const K = { lookup: key("Lookup"), primary: (addr: string) => key("Primary", address.encode(addr)) };

export const primaryContract = defineContract("primary", PrimaryFns, {
  __constructor(ctx, { lookup }) {
    typed(ctx.storage).set(K.lookup, address, lookup);
    return null;
  },

  primary: (ctx, { address: addr }) => typed(ctx.storage).get(K.primary(addr), string) ?? null,

  set_primary(ctx, { address: addr, name }) {
    ctx.requireAuth(addr);
    const lookup = typed(ctx.storage).need(K.lookup, address, E.NOT_AUTHORISED);
    const resolution = callFn(ctx, lookup, LookupFns.lookup, { name });
    if (resolution === null) throw new ContractError(E.NAME_NOT_FOUND);
    if (resolution.address !== addr)
      throw new ContractError(E.NOT_AUTHORISED, "name does not resolve to the address");
    typed(ctx.storage).set(K.primary(addr), string, name);
    emitEvent(ctx, encodeEvent({ type: "set_pri", address: addr, data: { name } }));
    return null;
  },

  clear_primary(ctx, { address: addr }) {
    ctx.requireAuth(addr);
    typed(ctx.storage).remove(K.primary(addr));
    emitEvent(ctx, encodeEvent({ type: "clr_pri", address: addr, data: null }));
    return null;
  },
});
