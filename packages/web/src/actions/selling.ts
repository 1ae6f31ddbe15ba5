// The seller's transactions from the owner console (docs/market.md "Seller flow"; docs/api.md "Marketplace"): the
// listing's bond, a payment held to the bond the owner was shown (escrow, amount, hash memo); the proposal of the
// namespace to a buyer holding an intent (`propose_transfer` on the registry, its expiry checked by the client's
// proposalCall); and its withdrawal (`cancel_transfer`). Each is prepared with the owner's console session and goes
// to POST /console/tx/submit. Loaded when the action runs (see action.ts).
import { proposalCall } from "@namereg/client";
import { namespaceNode, RegistryFns } from "@namereg/protocol";
import { api, unwrap } from "../api.ts";
import { dateTime } from "../format.ts";
import { href } from "../routes.ts";
import { consoleHeaders } from "../wallet/session.ts";
import type { Action, PreparedAction, PreparedPayment } from "./action.ts";

/** The listing's bond as the owner was shown it (GET /console/market/listings) and the escrow it goes to. */
export interface ReviewedBond {
  readonly escrow: string;
  readonly amountXlm: string;
  readonly memoHash: string;
}

/** A proposal stays acceptable for a day, as long as a buyer's fresh intent. */
export const PROPOSAL_SECONDS = 86_400;

/** Pays the bond of listing `listingId` of `namespace` into the escrow, from the signed-in owner. */
export function payBond(listingId: string, namespace: string, bond: ReviewedBond): Action {
  return {
    title: `Pay the bond for listing ${namespace}`,
    async prepare(_wallet, session): Promise<PreparedPayment> {
      const prepared = await unwrap(
        api.POST("/console/market/listings/{id}/bond/prepare", {
          params: { path: { id: listingId } },
          headers: consoleHeaders(session, namespace),
        }),
      );
      return {
        kind: "payment",
        xdr: prepared.xdr,
        network: prepared.network,
        destinationWords: `the marketplace escrow, as the bond of your listing of ${namespace}`,
        expected: { destination: bond.escrow, amountXlm: bond.amountXlm, memoHash: bond.memoHash },
        memoWords: "the listing's bond memo, which ties the payment to this listing",
        lines: [
          `The listing turns active, open to buyers, once the escrow sees the bond.`,
          "You get it back after a sale, or when you cancel while no buyer's deposit is in the escrow; if you back out of a sale a buyer has paid for, it goes to that buyer.",
        ],
        submit: { route: "console", namespace },
      };
    },
  };
}

/** Proposes the transfer of `namespace` to `buyer` (who holds an intent on the listing) for a day. */
export function proposeTransfer(listingId: string, namespace: string, buyer: string): Action {
  return {
    title: `Offer ${namespace} to ${short(buyer)}`,
    result: { href: href.account(buyer), label: `The buyer's account ${short(buyer)}` },
    async prepare(_wallet, session): Promise<PreparedAction> {
      const prepared = await unwrap(
        api.POST("/console/market/listings/{id}/propose/prepare", {
          params: { path: { id: listingId } },
          body: { buyer, expiresInSeconds: PROPOSAL_SECONDS },
          headers: consoleHeaders(session, namespace),
        }),
      );
      // The service chose `expires` from the ledger's clock: the call is held to about a day from now.
      const asked = proposalCall(namespace, buyer, prepared.expires, PROPOSAL_SECONDS);
      return {
        xdr: prepared.xdr,
        network: prepared.network,
        contractId: prepared.registryId,
        contractWords: "the namespace registry",
        asked,
        submit: { route: "console", namespace },
        describe: (args) => {
          const call = RegistryFns.propose_transfer.decodeArgs(args);
          const until = dateTime(new Date(Number(call.expires) * 1000).toISOString());
          return [
            `You offer namespace ${namespace} to ${call.to}, until ${until}.`,
            "Once their deposit is in the escrow they can accept it: the namespace becomes theirs and the escrow pays you the price less the fee, and returns your bond.",
          ];
        },
      };
    },
  };
}

/** Withdraws the registry's transfer proposal of `namespace`. */
export function cancelProposal(listingId: string, namespace: string): Action {
  return {
    title: `Withdraw the offer of ${namespace}`,
    async prepare(_wallet, session): Promise<PreparedAction> {
      const def = RegistryFns.cancel_transfer;
      const asked = {
        function: def.name,
        args: def.encodeArgs({ node: namespaceNode(namespace.toLowerCase()) }),
      };
      const prepared = await unwrap(
        api.POST("/console/market/listings/{id}/cancel-proposal/prepare", {
          params: { path: { id: listingId } },
          headers: consoleHeaders(session, namespace),
        }),
      );
      return {
        xdr: prepared.xdr,
        network: prepared.network,
        contractId: prepared.registryId,
        contractWords: "the namespace registry",
        asked,
        submit: { route: "console", namespace },
        describe: () => [
          `You withdraw your offer of namespace ${namespace}: no one can accept it any more.`,
          "If the buyer's deposit is already in the escrow, it is refunded to them and your bond is paid to them.",
        ],
      };
    },
  };
}

/** An account's first and last four characters, as the page shows it in a heading. */
const short = (account: string) => `${account.slice(0, 4)}…${account.slice(-4)}`;
