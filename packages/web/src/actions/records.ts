// A name's own records, changed by its holder (docs/api.md "Subnames, network addresses and holder transactions"):
// a text record, the payment instruction, the built-in pay-to address, and — signed by the name's pay-to address —
// the display name and the primary name. Each goes through POST /records/prepare and POST /records/submit; the call
// the signature must cover is the client's holderCall of the same body. Loaded when the action runs (see action.ts).
import { holderCall, type paths } from "@namereg/client";
import { PrimaryFns, RegistrarFns, ResolverFns } from "@namereg/protocol";
import { api, unwrap } from "../api.ts";
import type { Action, PreparedAction } from "./action.ts";

/** The body of POST /records/prepare: the name and exactly one change. */
type RecordBody = paths["/records/prepare"]["post"]["requestBody"]["content"]["application/json"];

const namespaceOf = (name: string) => name.slice(name.lastIndexOf(".") + 1);

/** Prepares one record change for the signing account and says which contract it goes to. */
async function prepareRecord(
  body: RecordBody,
  signer: string,
  contractWords: string,
  describe: PreparedAction["describe"],
): Promise<PreparedAction> {
  const asked = holderCall("/records/prepare", body, signer);
  const prepared = await unwrap(api.POST("/records/prepare", { body }));
  return {
    xdr: prepared.xdr,
    network: prepared.network,
    contractId: "resolverId" in prepared ? prepared.resolverId : prepared.contractId,
    contractWords,
    asked,
    submit: { route: "holder" },
    describe,
  };
}

/** Sets text record `key` of `name` to `value`, or removes it when `value` is null. */
export function setText(name: string, key: string, value: string | null): Action {
  return {
    title: value === null ? `Remove text record ${key} of ${name}` : `Set text record ${key} of ${name}`,
    prepare: (wallet) =>
      prepareRecord(
        { name, text: { key, value } },
        wallet.account,
        `the resolver of namespace ${namespaceOf(name)}`,
        (args) => {
          const call = ResolverFns.set_text.decodeArgs(args);
          return call.value === null
            ? [`Remove text record “${call.key}” of ${name}.`]
            : [`Set text record “${call.key}” of ${name} to “${call.value}”.`];
        },
      ),
  };
}

/** Sets the payment instruction of `name`: payers are told to pay `address`, with `memo` when there is one. */
export function setPayment(name: string, address: string, memo: string | null): Action {
  return {
    title: `Set the payment instruction of ${name}`,
    prepare: (wallet) =>
      prepareRecord(
        { name, payment: { address, memo } },
        wallet.account,
        `the resolver of namespace ${namespaceOf(name)}`,
        (args) => {
          const call = ResolverFns.set_payment.decodeArgs(args);
          return [
            `Payments to ${name} go to ${call.address}.`,
            call.memo === null ? "With no memo." : `With the memo “${call.memo}”.`,
          ];
        },
      ),
  };
}

/** Sets the built-in pay-to address of `name` (label.namespace) on its registrar. */
export function setNameAddress(name: string, address: string): Action {
  return {
    title: `Set the address of ${name}`,
    prepare: (wallet) =>
      prepareRecord(
        { name, address },
        wallet.account,
        `the registrar of namespace ${namespaceOf(name)}`,
        (args) => {
          const call = RegistrarFns.set_address.decodeArgs(args);
          return [
            `Set the address of ${call.label}.${namespaceOf(name)} to ${call.address}.`,
            "A payment instruction, when set, still wins in lookup.",
          ];
        },
      ),
  };
}

/** Makes `name` the display name of the signing account (it must be the name's pay-to address). */
export function setDisplayName(name: string): Action {
  return {
    title: `Make ${name} your display name`,
    prepare: (wallet) =>
      prepareRecord(
        { name, displayName: true },
        wallet.account,
        `the resolver of namespace ${namespaceOf(name)}`,
        (args) => {
          const call = ResolverFns.set_display_name.decodeArgs(args);
          return [`Show ${call.address} as ${name}.`];
        },
      ),
  };
}

/** Makes `name` the primary name of the signing account (it must be the name's pay-to address). */
export function setPrimaryName(name: string): Action {
  return {
    title: `Make ${name} your primary name`,
    prepare: (wallet) =>
      prepareRecord({ name, primary: true }, wallet.account, "the primary-name contract", (args) => {
        const call = PrimaryFns.set_primary.decodeArgs(args);
        return [`Make ${call.name} the primary name of ${call.address}.`];
      }),
  };
}
