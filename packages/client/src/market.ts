// The marketplace's transactions, each prepare → verify → sign → submit (docs/market.md): the buyer's deposit and
// acceptance (public routes, no session) and the seller's bond, transfer proposal and its cancellation (the owner
// console). Payments are checked with verifyPreparedPayment against the instructions the user reviewed; registry
// calls with verifyPrepared against the namespace's node, computed here from its label.
import { namespaceNode, RegistryFns } from "@namereg/protocol";
import { type NameregApi, unwrap } from "./api.ts";
import { type ConsoleSession, consoleHeaders } from "./console-changes.ts";
import {
  type AskedCall,
  type SignWith,
  type Submitted,
  submitSigned,
  verifyAndSign,
} from "./transactions.ts";
import { type PaymentExpectation, verifyPreparedPayment } from "./verify-payment.ts";
import { PreparedTransactionRejected } from "./verify-prepared.ts";

/** What a payment must be, as the user reviewed it: the `pay` of an intent, the `bond` of a listing. */
export interface ReviewedPayment {
  /** The destination (the escrow); check it against the wallet's own configuration where it has one. */
  readonly to: string;
  readonly amountXlm: string;
  readonly memoHash: string;
}

/** Verifies a prepared payment against what was reviewed, then hands it to the signer. */
export async function verifyAndSignPayment(
  prepared: { readonly xdr: string; readonly network?: string },
  reviewed: ReviewedPayment,
  sign: SignWith,
): Promise<string> {
  const expectation: PaymentExpectation = {
    networkPassphrase: sign.networkPassphrase,
    source: sign.account,
    destination: reviewed.to,
    amountXlm: reviewed.amountXlm,
    memoHash: reviewed.memoHash,
    ...(sign.maxFeeStroops === undefined ? {} : { maxFeeStroops: sign.maxFeeStroops }),
  };
  verifyPreparedPayment(prepared, expectation);
  return sign.signer(prepared.xdr, { networkPassphrase: sign.networkPassphrase });
}

/**
 * The buyer's deposit: one payment of the price to the escrow with the intent's hash memo, from `sign.account`
 * (POST /v1/market/listings/{id}/pay/prepare, verify against `reviewed` — the intent's `pay` — sign, POST
 * /records/submit). Pay only once the seller's proposal to you is live (docs/market.md "Buyer flow").
 */
export async function payDeposit(
  api: NameregApi,
  listing: { readonly listingId: string },
  reviewed: ReviewedPayment,
  sign: SignWith,
): Promise<Submitted> {
  const prepared = await unwrap(
    api.POST("/v1/market/listings/{id}/pay/prepare", {
      params: { path: { id: listing.listingId } },
      body: { account: sign.account },
    }),
  );
  return submitSigned(api, await verifyAndSignPayment(prepared, reviewed, sign));
}

/**
 * The buyer's acceptance of the namespace (accept_transfer on the registry) as `sign.account`
 * (POST /v1/market/listings/{id}/accept/prepare, verify, sign, POST /records/submit). `namespace` is the listing's
 * label as the user saw it: the call must name its node.
 */
export async function acceptTransfer(
  api: NameregApi,
  listing: { readonly listingId: string; readonly namespace: string },
  sign: SignWith,
): Promise<Submitted> {
  const asked = registryCall("accept_transfer", listing.namespace);
  const prepared = await unwrap(
    api.POST("/v1/market/listings/{id}/accept/prepare", {
      params: { path: { id: listing.listingId } },
      body: { account: sign.account },
    }),
  );
  return submitSigned(api, await verifyAndSign(prepared, asked, "registryId", sign));
}

/**
 * The seller's bond: one payment to the escrow with the listing's bond memo, from the owner's account
 * (POST /console/market/listings/{id}/bond/prepare, verify against `reviewed` — the listing's `bond` — sign,
 * POST /console/tx/submit).
 */
export async function payBond(
  api: NameregApi,
  listing: { readonly listingId: string },
  reviewed: ReviewedPayment,
  session: ConsoleSession,
  sign: SignWith,
): Promise<Submitted> {
  const headers = consoleHeaders(session);
  const prepared = await unwrap(
    api.POST("/console/market/listings/{id}/bond/prepare", {
      params: { path: { id: listing.listingId } },
      headers,
    }),
  );
  const xdr = await verifyAndSignPayment(prepared, reviewed, sign);
  return unwrap(api.POST("/console/tx/submit", { body: { xdr }, headers }));
}

/** Room for the wallet's clock and the ledger's close time to differ when checking a proposal's expiry. */
const EXPIRY_MARGIN_SECONDS = 3600;

/**
 * The seller's proposal of the session's namespace to `buyer`, who must hold an intent on the listing
 * (propose_transfer; POST /console/market/listings/{id}/propose/prepare, verify, sign, POST /console/tx/submit).
 * The service sets `expires` from the ledger's close time; it is accepted when it lies between now and
 * `expiresInSeconds` (default one day) from now, give or take an hour of clock difference.
 */
export async function proposeTransfer(
  api: NameregApi,
  proposal: { readonly listingId: string; readonly buyer: string; readonly expiresInSeconds?: number },
  session: ConsoleSession,
  sign: SignWith,
): Promise<Submitted> {
  const headers = consoleHeaders(session);
  const lifetime = proposal.expiresInSeconds ?? 86_400;
  const prepared = await unwrap(
    api.POST("/console/market/listings/{id}/propose/prepare", {
      params: { path: { id: proposal.listingId } },
      body: { buyer: proposal.buyer, expiresInSeconds: lifetime },
      headers,
    }),
  );
  const asked = proposalCall(session.namespace, proposal.buyer, prepared.expires, lifetime);
  const xdr = await verifyAndSign(prepared, asked, "registryId", sign);
  return unwrap(api.POST("/console/tx/submit", { body: { xdr }, headers }));
}

/**
 * The propose_transfer call a proposal of `namespace` to `buyer` must be, with the `expires` the service chose
 * (unix seconds, decimal): refused (PreparedTransactionRejected `arguments_mismatch`) unless it lies between now
 * and `lifetimeSeconds` from now, give or take an hour of clock difference. What a wallet verifies the prepared
 * proposal against (proposeTransfer here; the web app's review).
 */
export function proposalCall(
  namespace: string,
  buyer: string,
  expiresText: string,
  lifetimeSeconds: number,
): AskedCall {
  const expires = BigInt(expiresText);
  const now = BigInt(Math.floor(Date.now() / 1000));
  if (
    expires <= now - BigInt(EXPIRY_MARGIN_SECONDS) ||
    expires > now + BigInt(lifetimeSeconds + EXPIRY_MARGIN_SECONDS)
  ) {
    throw new PreparedTransactionRejected(
      "arguments_mismatch",
      `the proposal expires at ${expires}, not about ${lifetimeSeconds} s from now`,
    );
  }
  return {
    function: RegistryFns.propose_transfer.name,
    args: RegistryFns.propose_transfer.encodeArgs({
      node: namespaceNode(namespace.toLowerCase()),
      to: buyer,
      expires,
    }),
  };
}

/**
 * Withdraws the session's namespace's transfer proposal (cancel_transfer; POST
 * /console/market/listings/{id}/cancel-proposal/prepare, verify, sign, POST /console/tx/submit). With a funded
 * deposit this refunds the buyer and slashes the bond to them (docs/market.md "Seller flow").
 */
export async function cancelTransferProposal(
  api: NameregApi,
  listing: { readonly listingId: string },
  session: ConsoleSession,
  sign: SignWith,
): Promise<Submitted> {
  const headers = consoleHeaders(session);
  const asked = registryCall("cancel_transfer", session.namespace);
  const prepared = await unwrap(
    api.POST("/console/market/listings/{id}/cancel-proposal/prepare", {
      params: { path: { id: listing.listingId } },
      headers,
    }),
  );
  const xdr = await verifyAndSign(prepared, asked, "registryId", sign);
  return unwrap(api.POST("/console/tx/submit", { body: { xdr }, headers }));
}

function registryCall(fn: "accept_transfer" | "cancel_transfer", namespace: string) {
  const def = RegistryFns[fn];
  return { function: def.name, args: def.encodeArgs({ node: namespaceNode(namespace.toLowerCase()) }) };
}
