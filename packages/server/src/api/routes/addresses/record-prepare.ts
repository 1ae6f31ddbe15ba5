// The one-action record changes of POST /records/prepare beside the spec's network address (docs/api.md "Prepare
// and submit", **Chosen**): a text record, the payment instruction, the name's built-in address, the display name
// and the primary name. Each is one contract call built for the account that must authorise it: the holder for
// the records it controls, the name's pay-to address for the display and primary names (docs/contracts.md
// "Resolver", "Primary"). Checked before anything is built, as for the network address: a live name, a G signer,
// a resolver where the call needs one.
import { formatName, isAccountId, PrimaryFns, RegistrarFns, ResolverFns } from "@namereg/protocol";
import type { ChainClient } from "../../../chain/chain-client.ts";
import { liveRead } from "../../../chain/live-reads.ts";
import type { PreparedTransaction } from "../../../chain/prepare.ts";
import type { Config } from "../../../config/index.ts";
import type { Controlled, NameOrSubname } from "../../common/live-control.ts";
import type { NamespaceRoute } from "../../common/namespace-route.ts";
import { payToAddress } from "../../common/pay-to.ts";
import { ApiError } from "../../errors.ts";
import { resolverOf } from "./chain-policy.ts";

/** The record actions besides `chainAddress`, exactly one per request. */
export type RecordAction =
  | { readonly action: "text"; readonly key: string; readonly value: string | null }
  | { readonly action: "payment"; readonly address: string; readonly memo: string | null }
  | { readonly action: "address"; readonly address: string }
  | { readonly action: "displayName" }
  | { readonly action: "primary" };

export interface RecordTarget {
  readonly parsed: NameOrSubname;
  readonly ns: NamespaceRoute;
  /** The live name and its controller (liveControl). */
  readonly control: Controlled;
}

export interface PreparedRecord {
  readonly prepared: PreparedTransaction;
  /** The name's controller (its holder; a subname's parent holder). */
  readonly holder: string;
}

const READ = { failure: "chain_unavailable" } as const;

/** Builds the action's call; throws the ApiErrors docs/api.md lists for /records/prepare. */
export async function prepareRecordAction(
  chain: ChainClient,
  contracts: Config["chain"]["contracts"],
  target: RecordTarget,
  change: RecordAction,
): Promise<PreparedRecord> {
  const { parsed, ns, control } = target;
  const { name, node, holder } = control;
  const asHolder = () => {
    if (!isAccountId(holder)) throw new ApiError("contract_holder_requires_adapter", { name, holder });
    return holder;
  };
  switch (change.action) {
    case "text":
      return {
        holder,
        prepared: await chain.prepare(asHolder(), resolverOf(ns), ResolverFns.set_text, {
          node,
          key: change.key,
          value: change.value,
        }),
      };
    case "payment":
      return {
        holder,
        prepared: await chain.prepare(asHolder(), resolverOf(ns), ResolverFns.set_payment, {
          node,
          address: change.address,
          memo: change.memo,
        }),
      };
    case "address":
      // The registrar keeps a built-in address per name only; a subname's address is fixed by create_subname.
      if (parsed.kind !== "name") {
        throw new ApiError("invalid_name", {
          detail:
            "name: address needs label.namespace; a subname's address is set when it is created (POST /subnames/prepare)",
        });
      }
      return {
        holder,
        prepared: await chain.prepare(asHolder(), ns.registrar, RegistrarFns.set_address, {
          label: parsed.label,
          address: change.address,
        }),
      };
    case "displayName": {
      // The resolver lets only the node's pay-to address, as it reads it (its payment instruction, else its
      // address record), name the node as its display name; so that address signs.
      const resolver = resolverOf(ns);
      const [payment, addr] = await Promise.all([
        liveRead(chain, resolver, ResolverFns.payment, { node }, READ),
        liveRead(chain, resolver, ResolverFns.addr, { node }, READ),
      ]);
      const address = payment?.address ?? addr;
      if (address === null) throw new ApiError("no_payment_address", { name });
      return {
        holder,
        prepared: await chain.prepare(payingAccount(name, address), resolver, ResolverFns.set_display_name, {
          address,
          node,
        }),
      };
    }
    case "primary": {
      const primaryId = contracts.primary.id;
      if (primaryId === null) {
        throw new ApiError("chain_unavailable", {
          detail: "this service has no primary contract configured",
        });
      }
      // The primary contract accepts the name for exactly the address it resolves to (through Lookup).
      const address = await payToAddress(
        chain,
        {
          name: formatName(parsed),
          parsed,
          node,
          registrar: ns.registrar,
          resolver: ns.resolver,
          lookupId: contracts.lookup.id,
        },
        READ,
      );
      if (address === null) throw new ApiError("name_not_found", { name });
      return {
        holder,
        prepared: await chain.prepare(payingAccount(name, address), primaryId, PrimaryFns.set_primary, {
          address,
          name,
        }),
      };
    }
  }
}

/** The pay-to address as a signer: a G account (a contract address cannot sign a transaction's envelope). */
function payingAccount(name: string, address: string): string {
  if (!isAccountId(address)) throw new ApiError("contract_holder_requires_adapter", { name, address });
  return address;
}
