// A name's address on another network (docs/api.md "Subnames, network addresses and holder transactions"): set or
// remove it through POST /records/prepare, signed by the name's holder, submitted to POST /records/submit. Loaded
// when the action runs (see action.ts).
import { holderCall } from "@namereg/client";
import { ResolverFns } from "@namereg/protocol";
import { api, unwrap } from "../api.ts";
import type { Action, PreparedAction } from "./action.ts";

/** Sets `name`'s address on `network` to `address`, or removes it when `address` is null. */
export function setChainAddress(name: string, network: string, address: string | null): Action {
  const namespace = name.slice(name.lastIndexOf(".") + 1);
  return {
    title:
      address === null ? `Remove the ${network} address of ${name}` : `Set the ${network} address of ${name}`,
    async prepare(): Promise<PreparedAction> {
      const body = { name, chainAddress: { network, address } };
      const asked = holderCall("/records/prepare", body);
      const prepared = await unwrap(api.POST("/records/prepare", { body }));
      return {
        xdr: prepared.xdr,
        network: prepared.network,
        // A network address's answer names the resolver (the other record actions answer `contractId`).
        contractId: "resolverId" in prepared ? prepared.resolverId : prepared.contractId,
        contractWords: `the resolver of namespace ${namespace}`,
        asked,
        submit: { route: "holder" },
        describe: (args) => {
          const call = ResolverFns.set_chain_address.decodeArgs(args);
          return call.address === null
            ? [`Remove the ${call.network} address of ${name}.`]
            : [`Set the ${call.network} address of ${name} to ${call.address}.`];
        },
      };
    },
  };
}
