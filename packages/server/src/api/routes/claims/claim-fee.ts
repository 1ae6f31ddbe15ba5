// The namespace claim fee (docs/api.md "Claim fee"): the quote, a label's receipt and an account's credit, all read live
// from the allocator with Cache-Control: no-store, and the unsigned credit-recovery transaction. Credit recovery
// always pays the payee whoever signs (4.8 rule 3): the prepared call is claim_fee_credit(payee) with the funded
// `source` only paying the network fee.
import { AllocatorFns, isAccountId, isStellarAddress } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ChainClient } from "../../../chain/chain-client.ts";
import { readBondCredit, readCredit, readQuote, readReceipt } from "../../../chain/claim-fee.ts";
import { NO_STORE } from "../../cache.ts";
import { ApiError } from "../../errors.ts";
import type { RouteDeps } from "../../route-deps.ts";
import { PREPARE_ERRORS, routeRules } from "../../route-rules.ts";
import { ADDRESS_RULE, labelSegment, SEGMENT_RULE } from "../path-params.ts";
import { allocatorChain, claimFeeRead } from "./claim-fee-errors.ts";
import { BaseUnits, QuoteSchema, ReceiptSchema } from "./claim-fee-schemas.ts";

const LabelParams = z.object({ label: z.string().max(64).describe(SEGMENT_RULE) });
// No length of its own: any malformed address, however long, is 400 bad_address (requirePayee); the router's
// limit on a path segment (100 characters) bounds it.
const AddressParams = z.object({ address: z.string() });
const CreditPrepareBody = z.strictObject({ source: z.string().max(64) });

const LabelResponse = z.object({ label: z.string(), policy: QuoteSchema, receipt: ReceiptSchema.nullable() });
const CreditResponse = z.object({
  payee: z.string(),
  amount: BaseUnits.describe("The claim-fee credit in base units: what the prepare route recovers."),
  policy: QuoteSchema,
  bondAmount: BaseUnits.describe(
    "The objection-bond credit in base units (bond_credit): a separate credit, never added to amount; paid out by claim_bond_credit.",
  ),
});
const CreditPrepareResponse = z.object({
  ok: z.literal(true),
  xdr: z.string(),
  payee: z.string(),
  source: z.string(),
  amount: BaseUnits,
  network: z.string(),
});

/** The one rule of name segments (`routes/path-params.ts`): lower-cased, then a label, else 400 invalid_name. */
function requireLabel(label: string): string {
  return labelSegment("label", label);
}

function requirePayee(address: string): string {
  if (!isStellarAddress(address)) throw new ApiError("bad_address", { detail: ADDRESS_RULE });
  return address;
}

export const claimFeeRoutes: FastifyPluginAsyncZod<Pick<RouteDeps, "config" | "chainClient">> = async (
  app,
  { config, chainClient },
) => {
  // No allocator configured, or no RPC: every claim-fee answer is 503, never a guess.
  const chain = (): { reader: ChainClient; allocatorId: string } =>
    allocatorChain(chainClient, config.chain.contracts.allocator.id);

  const quoteRoute = {
    ...NO_STORE,
    schema: { summary: "The current claim fee policy", response: { 200: QuoteSchema } },
    config: routeRules("chain-read", ["chain_unavailable", "claim_fee_unavailable"]),
  };
  app.get("/v1/claim-fee", quoteRoute, async () => {
    const { reader, allocatorId } = chain();
    return claimFeeRead(() => readQuote(reader, allocatorId));
  });

  app.get(
    "/v1/claim-fee/:label",
    {
      ...NO_STORE,
      schema: {
        summary: "The claim fee for a namespace, and any receipt",
        params: LabelParams,
        response: { 200: LabelResponse },
      },
      config: routeRules("chain-read", ["invalid_name", "chain_unavailable", "claim_fee_unavailable"]),
    },
    async (request) => {
      const label = requireLabel(request.params.label);
      const { reader, allocatorId } = chain();
      const [policy, receipt] = await claimFeeRead(() =>
        Promise.all([readQuote(reader, allocatorId), readReceipt(reader, allocatorId, label)]),
      );
      return { label, policy, receipt };
    },
  );

  app.get(
    "/v1/claim-fee/credit/:address",
    {
      ...NO_STORE,
      schema: {
        summary: "An account's claim-fee credit",
        params: AddressParams,
        response: { 200: CreditResponse },
      },
      config: routeRules("chain-read", ["bad_address", "invalid_account", "chain_unavailable"]),
    },
    async (request) => {
      const payee = requirePayee(request.params.address);
      const { reader, allocatorId } = chain();
      const [policy, amount, bond] = await claimFeeRead(() =>
        Promise.all([
          readQuote(reader, allocatorId),
          readCredit(reader, allocatorId, payee),
          readBondCredit(reader, allocatorId, payee),
        ]),
      );
      return { payee, amount: amount.toString(), policy, bondAmount: bond.toString() };
    },
  );

  app.post(
    "/v1/claim-fee/credit/:address/prepare",
    {
      schema: {
        summary: "Prepare recovering an account's claim-fee credit",
        params: AddressParams,
        body: CreditPrepareBody,
        response: { 200: CreditPrepareResponse },
      },
      config: routeRules("prepare", [...PREPARE_ERRORS, "bad_address", "no_credit"]),
    },
    async (request) => {
      const payee = requirePayee(request.params.address);
      const { source } = request.body;
      if (!isAccountId(source)) {
        throw new ApiError("invalid_account", { detail: "source: a funded Stellar account (G…)" });
      }
      const { reader, allocatorId } = chain();
      // The request's own fault comes first: an unfunded source is 400 invalid_account whatever the credit.
      await reader.requireAccount(source);
      const amount = await claimFeeRead(() => readCredit(reader, allocatorId, payee));
      // Checked before building: a wallet must never be shown a transaction that can only fail.
      if (amount <= 0n) throw new ApiError("no_credit", { payee });
      const prepared = await reader.prepare(source, allocatorId, AllocatorFns.claim_fee_credit, { payee });
      return {
        ok: true as const,
        xdr: prepared.xdr,
        payee,
        source,
        amount: amount.toString(),
        network: prepared.networkPassphrase,
      };
    },
  );
};
