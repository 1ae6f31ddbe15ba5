// The buyer's marketplace actions (docs/market.md "Buyer flow"; docs/api.md "Marketplace"): the escrow deposit, a
// classic payment held to the intent's `pay` the person reviewed (destination, amount, hash memo), and the
// acceptance of the namespace (`accept_transfer(node)` on the registry) once the seller's proposal is live. Both
// are public prepare routes for the signing account and go to POST /records/submit. Loaded when the action runs.
import { namespaceNode, RegistryFns } from "@namereg/protocol";
import { api, unwrap } from "../api.ts";
import { href } from "../routes.ts";
import type { Action, PreparedAction, PreparedPayment } from "./action.ts";

/** The intent's payment instructions as the person reviewed them (POST /v1/market/listings/{id}/intent `pay`). */
export interface ReviewedPay {
  readonly to: string;
  readonly amountXlm: string;
  readonly memoHash: string;
}

/** Pays the listing's price into the escrow with the intent's memo, from the signed-in account. */
export function payDeposit(listingId: string, namespace: string, pay: ReviewedPay): Action {
  return {
    title: `Pay the deposit for ${namespace}`,
    async prepare(wallet): Promise<PreparedPayment> {
      const prepared = await unwrap(
        api.POST("/v1/market/listings/{id}/pay/prepare", {
          params: { path: { id: listingId } },
          body: { account: wallet.account },
        }),
      );
      return {
        kind: "payment",
        xdr: prepared.xdr,
        network: prepared.network,
        destinationWords: `the marketplace escrow, as the deposit for ${namespace}`,
        expected: { destination: pay.to, amountXlm: pay.amountXlm, memoHash: pay.memoHash },
        memoWords: "your intent's memo, which ties the payment to your intent",
        lines: [
          `The escrow holds it until you accept ${namespace}, and refunds it if the sale does not happen.`,
        ],
        submit: { route: "holder" },
      };
    },
  };
}

/** Accepts the seller's transfer proposal of `namespace` to the signed-in account: the namespace becomes theirs. */
export function acceptTransfer(listingId: string, namespace: string): Action {
  return {
    title: `Accept ${namespace}`,
    result: { href: href.namespace(namespace), label: `Namespace ${namespace}` },
    async prepare(wallet): Promise<PreparedAction> {
      const def = RegistryFns.accept_transfer;
      const node = namespaceNode(namespace.toLowerCase());
      const asked = { function: def.name, args: def.encodeArgs({ node }) };
      const prepared = await unwrap(
        api.POST("/v1/market/listings/{id}/accept/prepare", {
          params: { path: { id: listingId } },
          body: { account: wallet.account },
        }),
      );
      return {
        xdr: prepared.xdr,
        network: prepared.network,
        contractId: prepared.registryId,
        contractWords: "the namespace registry",
        asked,
        submit: { route: "holder" },
        describe: (args) => {
          // The node is the namespace's (verifyPrepared held the call to it): said by name, the node under Details.
          def.decodeArgs(args);
          return [
            `You accept ${namespace}: the seller's offer of it to your account ${wallet.account} takes effect, and ${namespace} is yours.`,
            "The escrow then pays the seller from your deposit.",
          ];
        },
      };
    },
  };
}
