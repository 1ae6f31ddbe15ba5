// A paid namespace claim, prepared for the claimant's wallet (docs/api.md "Claim fee"): the session's wallet is the
// claimant, and the claimant must send back the quote it reviewed (`expectedFee`). Missing → 400
// claim_fee_quote_required; any field differing from the chain's current policy → 409 claim_fee_changed with the
// current quote, so the wallet re-reviews instead of paying a fee nobody showed its user. The transaction
// transfers the fee from the claimant; the wallet signs it (and should verify it first with
// @namereg/client's verifyAnnounce), the service never does.
import { AllocatorFns, isAccountId } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { type ClaimFeeQuote, readQuote } from "../../../chain/claim-fee.ts";
import { noStore } from "../../cache.ts";
import { type ConsoleContext, sessionOf } from "../../common/console-context.ts";
import { ApiError } from "../../errors.ts";
import type { RouteDeps } from "../../route-deps.ts";
import { CONSOLE_ERRORS, PREPARE_ERRORS, routeRules } from "../../route-rules.ts";
import { labelSegment } from "../path-params.ts";
import { allocatorChain, claimFeeRead } from "./claim-fee-errors.ts";

/** Bounds of what one claim may assert; the contract stores it all, so keep it reviewable. */
const MAX_BASIS = 8;
const MAX_EVIDENCE = 8;

const ExpectedFee = z.strictObject({
  allocatorId: z.string().max(64),
  token: z.string().max(64),
  amount: z.string().max(40),
  recipient: z.string().max(64),
  network: z.string().max(200),
});

const AnnounceBody = z.strictObject({
  label: z.string().max(64),
  basis: z
    .array(z.string().regex(/^[A-Za-z0-9_]{1,32}$/, "must be a symbol: 1-32 of A-Z, a-z, 0-9 and '_'"))
    .min(1)
    .max(MAX_BASIS),
  evidence: z
    .array(
      z.strictObject({
        label: z.string().min(1).max(64),
        url: z.url({ protocol: /^https?$/ }).max(512),
      }),
    )
    .max(MAX_EVIDENCE)
    .default([]),
  // Optional in the schema only so that its absence gets the spec's own code rather than a generic 400.
  expectedFee: ExpectedFee.optional(),
});

const AnnouncePrepared = z.object({
  ok: z.literal(true),
  xdr: z.string(),
  claimant: z.string(),
  fee: z.object({ allocatorId: z.string(), token: z.string(), amount: z.string(), recipient: z.string() }),
  network: z.string(),
});

export type ConsoleAnnounceOptions = ConsoleContext & Pick<RouteDeps, "config">;

function sameQuote(expected: z.infer<typeof ExpectedFee>, quote: ClaimFeeQuote): boolean {
  return (
    expected.allocatorId === quote.allocatorId &&
    expected.token === quote.token &&
    expected.amount === quote.amount &&
    expected.recipient === quote.recipient &&
    expected.network === quote.network
  );
}

export const consoleAnnounceRoutes: FastifyPluginAsyncZod<ConsoleAnnounceOptions> = async (
  app,
  { chainClient, config },
) => {
  app.post(
    "/console/register/announce/prepare",
    {
      schema: {
        summary: "Claimant: prepare the announcement of a namespace claim, with the fee",
        body: AnnounceBody,
        response: { 200: AnnouncePrepared },
      },
      config: routeRules("prepare", [
        ...CONSOLE_ERRORS,
        ...PREPARE_ERRORS,
        "claim_fee_quote_required",
        "claim_fee_changed",
        "claim_fee_unavailable",
        // The namespace exists already (or its label is another's claim): nothing to announce.
        "name_taken",
      ]),
    },
    async (request, reply) => {
      noStore(reply);
      const session = sessionOf(request);
      const claimant = session.account;
      if (session.kind !== "wallet" || claimant === null) {
        throw new ApiError("wallet_session_required", {
          detail: "Sign in with the claimant's wallet: the session's account is the claimant.",
        });
      }
      if (!isAccountId(claimant))
        throw new ApiError("wallet_session_required", { detail: "not a G account" });
      const { basis, evidence, expectedFee } = request.body;
      const label = labelSegment("label", request.body.label);
      if (expectedFee === undefined) {
        throw new ApiError("claim_fee_quote_required", {
          detail: "expectedFee: send the quote of GET /v1/claim-fee that the claimant reviewed",
        });
      }
      const { reader, allocatorId } = allocatorChain(chainClient, config.chain.contracts.allocator.id);
      const quote = await claimFeeRead(() => readQuote(reader, allocatorId));
      if (!sameQuote(expectedFee, quote)) throw new ApiError("claim_fee_changed", { quote });

      const fee = { token: quote.token, amount: BigInt(quote.amount), recipient: quote.recipient };
      const prepared = await reader.prepare(claimant, allocatorId, AllocatorFns.announce, {
        claimant,
        label,
        basis,
        evidence,
        fee,
      });
      return {
        ok: true as const,
        xdr: prepared.xdr,
        claimant,
        fee: { allocatorId, token: quote.token, amount: quote.amount, recipient: quote.recipient },
        network: prepared.networkPassphrase,
      };
    },
  );
};
