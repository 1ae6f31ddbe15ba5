// A billing payment from the owner console (docs/billing.md): whole 30-day periods, to the billing account, with
// the namespace's node as MEMO_HASH, prepared → verified → signed → submitted. The expectation is computed here
// from the instructions GET /console/billing gave (account and price) and the session's namespace.
import { namespaceNode, stroopsToXlm, xlmToStroops } from "@namereg/protocol";
import { type NameregApi, unwrap } from "./api.ts";
import { type ConsoleSession, consoleHeaders } from "./console-changes.ts";
import { verifyAndSignPayment } from "./market.ts";
import type { SignWith, Submitted } from "./transactions.ts";

/** The part of GET /console/billing's `instructions` a payment is checked against. */
export interface BillingInstructions {
  /** The billing account. */
  readonly account: string;
  readonly pricePerPeriodXlm: string;
}

/**
 * Pays `periods` whole periods for the session's namespace (POST /console/billing/pay/prepare, verify against
 * `instructions`, sign, POST /console/tx/submit).
 */
export async function payBilling(
  api: NameregApi,
  order: { readonly periods: number },
  instructions: BillingInstructions,
  session: ConsoleSession,
  sign: SignWith,
): Promise<Submitted> {
  const headers = consoleHeaders(session);
  const prepared = await unwrap(
    api.POST("/console/billing/pay/prepare", {
      body: { namespace: session.namespace, periods: order.periods },
      headers,
    }),
  );
  const amount = xlmToStroops(instructions.pricePerPeriodXlm) * BigInt(order.periods);
  const xdr = await verifyAndSignPayment(
    prepared,
    {
      to: instructions.account,
      amountXlm: stroopsToXlm(amount),
      memoHash: namespaceNode(session.namespace.toLowerCase()),
    },
    sign,
  );
  return unwrap(api.POST("/console/tx/submit", { body: { xdr }, headers }));
}
