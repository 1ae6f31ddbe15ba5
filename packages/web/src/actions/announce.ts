// A new claimant's announcement of a namespace claim, with the claim fee (docs/claims.md; docs/api.md "Claim
// fee"): POST /console/register/announce/prepare with the quote the person reviewed as `expectedFee` (a changed
// policy is 409 claim_fee_changed, said in words by errors.ts), then verifyAnnounce against the deployment's
// public RPC (flow.ts), and POST /records/submit, which relays `announce` on the configured allocator. Loaded
// when the action runs.
import { api, unwrap } from "../api.ts";
import { baseUnitsAmount } from "../format.ts";
import { basis as basisWords } from "../words.ts";
import type { Action, PreparedAnnounce } from "./action.ts";
import { type AnnounceInput, refundLines } from "./announce-form.ts";

/** The quote of GET /v1/claim-fee the person reviewed: what the prepare must match and the review repeats. */
export interface ReviewedQuote {
  readonly allocatorId: string;
  readonly token: string;
  readonly amount: string;
  readonly recipient: string;
  readonly network: string;
  readonly refundBps: Readonly<Record<string, number>>;
}

export function announceClaim(input: AnnounceInput, quote: ReviewedQuote, rpcUrl: string): Action {
  return {
    title: `Announce a claim on namespace ${input.label}`,
    async prepare(_wallet, session): Promise<PreparedAnnounce> {
      const { allocatorId, token, amount, recipient, network } = quote;
      const prepared = await unwrap(
        api.POST("/console/register/announce/prepare", {
          body: {
            label: input.label,
            basis: [...input.basis],
            evidence: [...input.evidence],
            expectedFee: { allocatorId, token, amount, recipient, network },
          },
          headers: { authorization: `Bearer ${session.token}` },
        }),
      );
      return {
        kind: "announce",
        xdr: prepared.xdr,
        network: prepared.network,
        rpcUrl,
        allocatorId,
        label: input.label,
        basis: input.basis,
        evidence: input.evidence,
        submit: { route: "holder" },
        // `fee` is what verifyAnnounce read from the chain's policy and found the envelope to pay.
        describe: (fee) => [
          `Announce a claim on namespace ${input.label}, on the basis of ${input.basis.map(basisWords).join(", ")}.`,
          ...(input.evidence.length === 0
            ? ["Citing no evidence."]
            : input.evidence.map((e) => `Citing “${e.label}”: ${e.url}.`)),
          `Pay the claim fee of ${baseUnitsAmount(fee)} from your account to the claim allocator, which holds it until the claim ends.`,
          `Checked against the chain at ${rpcUrl}: this is the allocator's claim fee now, in XLM, and nothing more can be taken from your account.`,
          ...refundLines(fee, quote.refundBps),
        ],
      };
    },
  };
}
