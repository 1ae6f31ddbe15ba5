// Prepare → verify → sign → submit, with the signing left to the caller's wallet: the service builds and simulates
// the transaction, verifyPrepared checks it does exactly what the caller asked, the signer callback (a wallet, a
// hardware key, a Keypair in a test) signs it, the service submits it. Shapes come from the OpenAPI document;
// failures are NameregError with the spec's code.
import {
  canonicalChainAddress,
  formatName,
  isChainNetwork,
  nodeOf,
  PrimaryFns,
  parseName,
  RegistrarFns,
  ResolverFns,
  SUBNAME_POLICIES,
} from "@namereg/protocol";
import type { xdr } from "@stellar/stellar-sdk";
import { type NameregApi, NameregError, type paths, unwrap } from "./api.ts";
import { verifyPrepared } from "./verify-prepared.ts";

/** Signs a transaction envelope (base64 XDR) for the given network and returns the signed envelope. */
export type Signer = (xdr: string, context: { readonly networkPassphrase: string }) => Promise<string>;

export interface SignWith {
  readonly signer: Signer;
  /** The network the wallet signs for; a transaction prepared for another is refused. */
  readonly networkPassphrase: string;
  /** The account the signer signs as: the prepared transaction's source must be this account. */
  readonly account: string;
  /**
   * The contract the change must call (the namespace's registrar for subnames and the subname policy, its resolver
   * for network addresses and the chain policy), from the wallet's own configuration. Default: the one the
   * prepare answer names for the call's kind (`registrarId` for subnames and the subname policy, `resolverId` for the
   * rest), which the function, arguments and authorisation checks still hold to the one call asked for.
   */
  readonly contractId?: string;
  /** Highest total fee accepted, in stroops (default DEFAULT_MAX_FEE_STROOPS, 1 XLM). */
  readonly maxFeeStroops?: bigint | number | string;
}

/** The one contract call a request body asks for, as verifyPrepared checks it. */
export interface AskedCall {
  readonly function: string;
  readonly args: readonly xdr.ScVal[];
}

interface PreparedAnswer {
  readonly xdr: string;
  readonly network?: string;
  readonly registrarId?: string;
  readonly resolverId?: string;
  readonly registryId?: string;
  readonly allocatorId?: string;
  /** The record actions besides the network address name the contract they call in this one field. */
  readonly contractId?: string;
}

/**
 * Which field of the answer names the contract a change calls: the namespace's registrar (subnames, subname
 * policy) or resolver (network addresses, chain policy), the registry (transfers), the allocator (claims), or
 * `contractId` (the record actions besides the network address).
 */
export type ContractKind = "registrarId" | "resolverId" | "registryId" | "allocatorId" | "contractId";

/**
 * Verifies the prepared transaction against what was asked, then hands it to the signer. Without the wallet's own
 * contract, the one taken from the answer is the field of the call's kind only: an answer that also names the other
 * contract cannot choose which one the call is held to.
 */
export async function verifyAndSign(
  prepared: PreparedAnswer,
  asked: AskedCall,
  kind: ContractKind,
  sign: SignWith,
): Promise<string> {
  const contractId = sign.contractId ?? prepared[kind];
  if (contractId === undefined) {
    throw new NameregError(0, { error: "unknown_error", detail: `the prepare answer names no ${kind}` });
  }
  verifyPrepared(prepared, {
    networkPassphrase: sign.networkPassphrase,
    source: sign.account,
    contractId,
    function: asked.function,
    args: asked.args,
    ...(sign.maxFeeStroops === undefined ? {} : { maxFeeStroops: sign.maxFeeStroops }),
  });
  return sign.signer(prepared.xdr, { networkPassphrase: sign.networkPassphrase });
}

function invalidName(name: string, expected: string): never {
  throw new NameregError(400, { error: "invalid_name", detail: `name: must be ${expected}`, name });
}

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

/**
 * A body the call cannot be encoded from (a generation that is not a decimal, a create without an address) is the
 * caller's mistake: refused before anything is asked, as the API would refuse it.
 */
function asInvalidRequest(encode: () => AskedCall): AskedCall {
  try {
    return encode();
  } catch (cause) {
    if (cause instanceof NameregError) throw cause;
    const detail = cause instanceof Error ? cause.message : String(cause);
    throw Object.assign(new NameregError(400, { error: "invalid_request", detail }), { cause });
  }
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

export type Body<P extends keyof paths> = paths[P] extends {
  post: { requestBody?: { content: { "application/json": infer B } } };
}
  ? B
  : never;
/** Included (200) or still pending (202, `ok: false, pending: true`): both carry the hash to follow. */
export type Submitted =
  | paths["/records/submit"]["post"]["responses"][200]["content"]["application/json"]
  | paths["/records/submit"]["post"]["responses"][202]["content"]["application/json"];

type HolderPrepare = "/records/prepare" | "/subnames/prepare";

/** A holder's change: prepare it, sign it, POST /records/submit (where both kinds of holder change go). */
async function holderChange<P extends HolderPrepare>(
  api: NameregApi,
  path: P,
  body: Body<P>,
  sign: SignWith,
): Promise<Submitted> {
  const asked = holderCall(path as "/records/prepare", body as Body<"/records/prepare">, sign.account);
  // openapi-fetch types each path's body separately; the union of the two is what `body` is.
  const prepared: PreparedAnswer = await unwrap(
    api.POST(path as "/records/prepare", { body: body as never }),
  );
  const kind: ContractKind =
    path === "/subnames/prepare"
      ? "registrarId"
      : (body as Body<"/records/prepare">).chainAddress !== undefined
        ? "resolverId"
        : "contractId";
  const signedXdr = await verifyAndSign(prepared, asked, kind, sign);
  return submitSigned(api, signedXdr);
}

/** POST /records/submit: where every public prepare's signed transaction goes. */
export function submitSigned(api: NameregApi, signedXdr: string): Promise<Submitted> {
  return unwrap(api.POST("/records/submit", { body: { signedXdr } }));
}

/**
 * Any one record change of a name (POST /records/prepare with exactly one action, sign, POST /records/submit):
 * the helpers below are this with their action filled in.
 */
export function changeRecord(
  api: NameregApi,
  body: Body<"/records/prepare">,
  sign: SignWith,
): Promise<Submitted> {
  return holderChange(api, "/records/prepare", body, sign);
}

/** Sets or removes a network address on a name (POST /records/prepare, sign, POST /records/submit). */
export function setChainAddress(
  api: NameregApi,
  body: Body<"/records/prepare">,
  sign: SignWith,
): Promise<Submitted> {
  return holderChange(api, "/records/prepare", body, sign);
}

/** Sets (`value` a string) or removes (`value` null) one text record of a name, as its holder (set_text). */
export function setTextRecord(
  api: NameregApi,
  change: { readonly name: string; readonly key: string; readonly value: string | null },
  sign: SignWith,
): Promise<Submitted> {
  return changeRecord(api, { name: change.name, text: { key: change.key, value: change.value } }, sign);
}

/**
 * Sets the payment instruction payers get from lookup — an address and an optional text memo — as the holder
 * (set_payment).
 */
export function setPaymentRecord(
  api: NameregApi,
  change: { readonly name: string; readonly address: string; readonly memo: string | null },
  sign: SignWith,
): Promise<Submitted> {
  return changeRecord(
    api,
    { name: change.name, payment: { address: change.address, memo: change.memo } },
    sign,
  );
}

/**
 * Sets a name's built-in pay-to address on its registrar, as the holder (set_address; `label.namespace` only). A
 * payment instruction, when set, still wins in lookup: change that with setPaymentRecord.
 */
export function setNameAddress(
  api: NameregApi,
  change: { readonly name: string; readonly address: string },
  sign: SignWith,
): Promise<Submitted> {
  return changeRecord(api, { name: change.name, address: change.address }, sign);
}

/** Makes the name the display name of its pay-to address, signed by that address: `sign.account` (set_display_name). */
export function setDisplayName(
  api: NameregApi,
  change: { readonly name: string },
  sign: SignWith,
): Promise<Submitted> {
  return changeRecord(api, { name: change.name, displayName: true }, sign);
}

/** Makes the name the primary name of its pay-to address, signed by that address: `sign.account` (set_primary). */
export function setPrimaryName(
  api: NameregApi,
  change: { readonly name: string },
  sign: SignWith,
): Promise<Submitted> {
  return changeRecord(api, { name: change.name, primary: true }, sign);
}

/**
 * Creates or removes a subname as the parent's holder (POST /subnames/prepare, sign, POST /records/submit). Read
 * the child first (`GET /v1/subnames/{namespace}/{label}/{child}`) for the generations the body must carry.
 */
export function changeSubname(
  api: NameregApi,
  body: Body<"/subnames/prepare">,
  sign: SignWith,
): Promise<Submitted> {
  return holderChange(api, "/subnames/prepare", body, sign);
}

/** A console session: the bearer token from POST /auth and the namespace it acts for. */
export interface ConsoleSession {
  readonly token: string;
  readonly namespace: string;
}

export const consoleHeaders = (session: ConsoleSession) => ({
  authorization: `Bearer ${session.token}`,
  "x-service-namespace": session.namespace,
});

type ConsolePrepare = "/console/subname-policy/prepare" | "/console/chain-policy/prepare";

/** A console change (subname or chain policy): prepare as the namespace owner, sign, POST /console/tx/submit. */
export async function consoleChange<P extends ConsolePrepare>(
  api: NameregApi,
  path: P,
  body: Body<P>,
  session: ConsoleSession,
  sign: SignWith,
): Promise<Submitted> {
  const headers = consoleHeaders(session);
  const asked = consoleCall(path, body);
  // openapi-fetch types each path's body separately; the union of the two is what `body` is.
  const prepared = await unwrap(
    api.POST(path as "/console/subname-policy/prepare", { body: body as never, headers }),
  );
  const kind = path === "/console/subname-policy/prepare" ? "registrarId" : "resolverId";
  const xdr = await verifyAndSign(prepared, asked, kind, sign);
  return unwrap(api.POST("/console/tx/submit", { body: { xdr }, headers }));
}

/** The contract call of a console change, encoded from the body the caller sent. */
function consoleCall<P extends ConsolePrepare>(path: P, body: Body<P>): AskedCall {
  return asInvalidRequest(() => encodeConsoleCall(path, body));
}

function encodeConsoleCall<P extends ConsolePrepare>(path: P, body: Body<P>): AskedCall {
  if (path === "/console/subname-policy/prepare") {
    const { policy } = body as Body<"/console/subname-policy/prepare">;
    if (!(SUBNAME_POLICIES as readonly string[]).includes(policy)) {
      throw new NameregError(400, { error: "invalid_request", detail: `policy: ${policy} is not a policy` });
    }
    return {
      function: RegistrarFns.set_subname_policy.name,
      args: RegistrarFns.set_subname_policy.encodeArgs({
        policy: policy as (typeof SUBNAME_POLICIES)[number],
      }),
    };
  }
  const { networks } = body as Body<"/console/chain-policy/prepare">;
  return {
    function: ResolverFns.set_chain_policy.name,
    args: ResolverFns.set_chain_policy.encodeArgs({ networks: [...networks] }),
  };
}
