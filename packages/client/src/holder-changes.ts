// A holder's changes of a name (records) and its subnames: prepare, verify against the call asked for, sign,
// POST /records/submit (where both kinds of holder change go).
import type { NameregApi } from "./api.ts";
import { unwrap } from "./api.ts";
import { type HolderPrepare, holderCall } from "./holder-calls.ts";
import {
  type Body,
  type ContractKind,
  type PreparedAnswer,
  type SignWith,
  type Submitted,
  submitSigned,
  verifyAndSign,
} from "./transactions.ts";

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
