// Prepare → verify → sign → submit, with the signing left to the caller's wallet: the service builds and simulates
// the transaction, verifyPrepared checks it does exactly what the caller asked, the signer callback (a wallet, a
// hardware key, a Keypair in a test) signs it, the service submits it. Shapes come from the OpenAPI document;
// failures are NameregError with the spec's code. This module is the loop's steps every change shares; the holder's
// changes are holder-changes.ts (their calls holder-calls.ts), the console's console-changes.ts.
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

export interface PreparedAnswer {
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

/**
 * A body the call cannot be encoded from (a generation that is not a decimal, a create without an address) is the
 * caller's mistake: refused before anything is asked, as the API would refuse it.
 */
export function asInvalidRequest(encode: () => AskedCall): AskedCall {
  try {
    return encode();
  } catch (cause) {
    if (cause instanceof NameregError) throw cause;
    const detail = cause instanceof Error ? cause.message : String(cause);
    throw Object.assign(new NameregError(400, { error: "invalid_request", detail }), { cause });
  }
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

/** POST /records/submit: where every public prepare's signed transaction goes. */
export function submitSigned(api: NameregApi, signedXdr: string): Promise<Submitted> {
  return unwrap(api.POST("/records/submit", { body: { signedXdr } }));
}
