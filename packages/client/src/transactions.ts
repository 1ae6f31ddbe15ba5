// Prepare → verify → sign → submit, with the signing left to the caller's wallet: the service builds and simulates
// the transaction, verifyPrepared checks it does exactly what the caller asked, the signer callback (a wallet, a
// hardware key, a Keypair in a test) signs it, the service submits it. Shapes come from the OpenAPI document;
// failures are NameregError with the spec's code.
import {
  canonicalChainAddress,
  isChainNetwork,
  nodeOf,
  parseName,
  RegistrarFns,
  ResolverFns,
  subnamePolicyFromHttp,
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
}

/** Which contract a change calls: the namespace's registrar (subnames, subname policy) or resolver (the rest). */
type ContractKind = "registrarId" | "resolverId";

/**
 * Verifies the prepared transaction against what was asked, then hands it to the signer. Without the wallet's own
 * contract, the one taken from the answer is the field of the call's kind only: an answer that also names the other
 * contract cannot choose which one the call is held to.
 */
async function verifyAndSign(
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

/** The contract call of a holder change, encoded from the body the caller sent: what the signature must cover. */
export function holderCall(path: "/records/prepare", body: Body<"/records/prepare">): AskedCall;
export function holderCall(path: "/subnames/prepare", body: Body<"/subnames/prepare">): AskedCall;
export function holderCall(path: HolderPrepare, body: Body<HolderPrepare>): AskedCall {
  return asInvalidRequest(() => encodeHolderCall(path, body));
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

function encodeHolderCall(path: HolderPrepare, body: Body<HolderPrepare>): AskedCall {
  if (path === "/records/prepare") {
    const { name, chainAddress } = body as Body<"/records/prepare">;
    const parsed = parseName(name.toLowerCase());
    if (parsed === null || parsed.kind === "namespace") {
      invalidName(name, "label.namespace or child.label.namespace");
    }
    const network = chainAddress.network;
    const address =
      chainAddress.address === null
        ? null
        : ((isChainNetwork(network) ? canonicalChainAddress(network, chainAddress.address) : null) ??
          chainAddress.address);
    return {
      function: ResolverFns.set_chain_address.name,
      args: ResolverFns.set_chain_address.encodeArgs({ node: nodeOf(parsed), network, address }),
    };
  }
  const change = body as Body<"/subnames/prepare">;
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

type Body<P extends keyof paths> = paths[P] extends {
  post: { requestBody?: { content: { "application/json": infer B } } };
}
  ? B
  : never;
/** Included (200) or still pending (202, `ok: false, pending: true`): both carry the hash to follow. */
type Submitted =
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
  const asked = holderCall(path as "/records/prepare", body as Body<"/records/prepare">);
  // openapi-fetch types each path's body separately; the union of the two is what `body` is.
  const prepared = await unwrap(api.POST(path as "/records/prepare", { body: body as never }));
  const kind = path === "/subnames/prepare" ? "registrarId" : "resolverId";
  const signedXdr = await verifyAndSign(prepared, asked, kind, sign);
  return unwrap(api.POST("/records/submit", { body: { signedXdr } }));
}

/** Sets or removes a network address on a name (POST /records/prepare, sign, POST /records/submit). */
export function setChainAddress(
  api: NameregApi,
  body: Body<"/records/prepare">,
  sign: SignWith,
): Promise<Submitted> {
  return holderChange(api, "/records/prepare", body, sign);
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

const consoleHeaders = (session: ConsoleSession) => ({
  authorization: `Bearer ${session.token}`,
  "x-service-namespace": session.namespace,
});

export type ConsolePrepare = "/console/subname-policy/prepare" | "/console/chain-policy/prepare";

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

/**
 * The contract call of a console change, encoded from the body the caller sent: what the signature must cover (for
 * a wallet that shows the transaction before signing, as holderCall is for the holder's changes).
 */
export function consoleCall<P extends ConsolePrepare>(path: P, body: Body<P>): AskedCall {
  return asInvalidRequest(() => encodeConsoleCall(path, body));
}

function encodeConsoleCall<P extends ConsolePrepare>(path: P, body: Body<P>): AskedCall {
  if (path === "/console/subname-policy/prepare") {
    const { policy } = body as Body<"/console/subname-policy/prepare">;
    // The body speaks HTTP's spelling (`creation-disabled`), the contract its symbol (`creation_disabled`).
    const onChain = subnamePolicyFromHttp(policy);
    if (onChain === null) {
      throw new NameregError(400, { error: "invalid_request", detail: `policy: ${policy} is not a policy` });
    }
    return {
      function: RegistrarFns.set_subname_policy.name,
      args: RegistrarFns.set_subname_policy.encodeArgs({ policy: onChain }),
    };
  }
  const { networks } = body as Body<"/console/chain-policy/prepare">;
  return {
    function: ResolverFns.set_chain_policy.name,
    args: ResolverFns.set_chain_policy.encodeArgs({ networks: [...networks] }),
  };
}
