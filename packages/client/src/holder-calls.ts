// The contract call a holder's change asks for, encoded from the body the caller sent: what verifyPrepared holds
// the prepared transaction to, and what a wallet showing the transaction before signing compares it with.
import {
  canonicalChainAddress,
  formatName,
  isChainNetwork,
  nodeOf,
  PrimaryFns,
  parseName,
  RegistrarFns,
  ResolverFns,
} from "@namereg/protocol";
import { NameregError } from "./api.ts";
import { type AskedCall, asInvalidRequest, type Body } from "./transactions.ts";

export type HolderPrepare = "/records/prepare" | "/subnames/prepare";

/**
 * The contract call of a holder change, encoded from the body the caller sent: what the signature must cover.
 * `signer`, the wallet's account, is needed for `displayName` and `primary`: the call names the pay-to address
 * that signs it.
 */
export function holderCall(
  path: "/records/prepare",
  body: Body<"/records/prepare">,
  signer?: string,
): AskedCall;
export function holderCall(path: "/subnames/prepare", body: Body<"/subnames/prepare">): AskedCall;
export function holderCall(path: HolderPrepare, body: Body<HolderPrepare>, signer?: string): AskedCall {
  return asInvalidRequest(() =>
    path === "/records/prepare"
      ? encodeRecordCall(body as Body<"/records/prepare">, signer)
      : encodeSubnameCall(body as Body<"/subnames/prepare">),
  );
}

function encodeRecordCall(body: Body<"/records/prepare">, signer: string | undefined): AskedCall {
  const { name } = body;
  const parsed = parseName(name.toLowerCase());
  if (parsed === null || parsed.kind === "namespace") {
    invalidName(name, "label.namespace or child.label.namespace");
  }
  const node = nodeOf(parsed);
  const actions = RECORD_ACTIONS.filter((key) => body[key] !== undefined);
  if (actions.length !== 1) {
    throw new NameregError(400, {
      error: "invalid_request",
      detail: `body: must hold exactly one of ${RECORD_ACTIONS.join(", ")}`,
    });
  }
  const { chainAddress, text, payment, address } = body;
  if (chainAddress !== undefined) {
    const network = chainAddress.network;
    const value =
      chainAddress.address === null
        ? null
        : ((isChainNetwork(network) ? canonicalChainAddress(network, chainAddress.address) : null) ??
          chainAddress.address);
    return {
      function: ResolverFns.set_chain_address.name,
      args: ResolverFns.set_chain_address.encodeArgs({ node, network, address: value }),
    };
  }
  if (text !== undefined) {
    return {
      function: ResolverFns.set_text.name,
      args: ResolverFns.set_text.encodeArgs({ node, key: text.key, value: text.value }),
    };
  }
  if (payment !== undefined) {
    return {
      function: ResolverFns.set_payment.name,
      args: ResolverFns.set_payment.encodeArgs({ node, address: payment.address, memo: payment.memo }),
    };
  }
  if (address !== undefined) {
    if (parsed.kind !== "name") invalidName(name, "label.namespace (a subname's address is set at creation)");
    return {
      function: RegistrarFns.set_address.name,
      args: RegistrarFns.set_address.encodeArgs({ label: parsed.label, address }),
    };
  }
  // displayName and primary: the pay-to address signs, and the call names it.
  if (signer === undefined) {
    throw new NameregError(400, {
      error: "invalid_request",
      detail: "displayName and primary are signed by the name's pay-to address: give the signing account",
    });
  }
  return body.displayName !== undefined
    ? {
        function: ResolverFns.set_display_name.name,
        args: ResolverFns.set_display_name.encodeArgs({ address: signer, node }),
      }
    : {
        function: PrimaryFns.set_primary.name,
        args: PrimaryFns.set_primary.encodeArgs({ address: signer, name: formatName(parsed) }),
      };
}

const RECORD_ACTIONS = ["chainAddress", "text", "payment", "address", "displayName", "primary"] as const;

function encodeSubnameCall(change: Body<"/subnames/prepare">): AskedCall {
  const parsed = parseName(change.name.toLowerCase());
  if (parsed?.kind !== "subname") invalidName(change.name, "child.label.namespace");
  const common = {
    label: parsed.label,
    child: parsed.child,
    parentGeneration: BigInt(change.parentGeneration),
  };
  return change.action === "create"
    ? {
        function: RegistrarFns.create_subname.name,
        args: RegistrarFns.create_subname.encodeArgs({
          ...common,
          generation: change.generation === null ? null : BigInt(change.generation),
          address: change.address ?? "",
        }),
      }
    : {
        function: RegistrarFns.remove_subname.name,
        args: RegistrarFns.remove_subname.encodeArgs({
          ...common,
          generation: BigInt(change.generation ?? "0"),
        }),
      };
}

function invalidName(name: string, expected: string): never {
  throw new NameregError(400, { error: "invalid_name", detail: `name: must be ${expected}`, name });
}
