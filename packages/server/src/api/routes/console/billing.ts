// GET /console/billing: the namespace owner's view of its subscription (docs/billing.md) — state, paid-until, the
// payment instructions and the payments seen for it. Same session and owner checks as the other console routes;
// the namespace comes from X-Service-Namespace alone (a GET has no body).
import { namespaceNode, stroopsToXlm } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { billingEnforced, PERIOD_DAYS, subscriptionState } from "../../../billing/terms.ts";
import type { Config } from "../../../config/index.ts";
import { type ConsoleContext, chainOf, NamespaceField, sessionOf } from "../../common/console-context.ts";
import { PreparedPaymentAnswer, paymentAnswer } from "../../common/payment-answer.ts";
import { ApiError } from "../../errors.ts";
import { CONSOLE_ERRORS, PREPARE_ERRORS, routeRules } from "../../route-rules.ts";
import { recentPayments, subscriptionOf } from "./queries.ts";

/** "10.0000000" → "10", "2.5000000" → "2.5": the amounts as an owner writes them. */
const xlm = (stroops: bigint) => stroopsToXlm(stroops).replace(/\.?0+$/, "");

/** Payments shown to the owner: the latest ones, which is what an owner checks after paying. */
const RECENT_PAYMENTS = 20;

const BillingResponse = z.object({
  namespace: z.string(),
  node: z.string(),
  state: z.enum(["active", "lapsed", "suspended"]),
  paidUntil: z.iso.datetime().nullable(),
  enforced: z.boolean(),
  graceUntil: z.iso.datetime().nullable(),
  instructions: z.object({
    account: z.string(),
    asset: z.literal("native"),
    memoType: z.literal("hash"),
    memoHash: z.string(),
    pricePerPeriodXlm: z.string(),
    periodDays: z.number().int(),
    note: z.string(),
  }),
  payments: z.array(
    z.object({
      id: z.string(),
      txHash: z.string(),
      ledger: z.number().int(),
      closedAt: z.iso.datetime(),
      asset: z.string(),
      amount: z.string(),
      state: z.enum(["pending", "applied", "quarantined", "resolved"]),
      periods: z.number().int().nullable(),
      paidUntil: z.iso.datetime().nullable(),
      reason: z.string().nullable(),
    }),
  ),
});

/** Ten years of periods in one payment: far beyond any owner's intent, still a bound on what is built. */
const MAX_PERIODS = 120;

const PayBody = z.strictObject({
  namespace: NamespaceField,
  periods: z.number().int().min(1).max(MAX_PERIODS).describe("Whole 30-day periods to buy."),
});

const PayPrepared = PreparedPaymentAnswer.extend({ periods: z.number().int() });

export const consoleBillingRoutes: FastifyPluginAsyncZod<ConsoleContext & { config: Config }> = async (
  app,
  { db, guard, now, config, chainClient },
) => {
  const billingRoute = {
    schema: {
      summary: "Owner: the namespace's billing state and payments",
      response: { 200: BillingResponse },
    },
    config: routeRules("global", [...CONSOLE_ERRORS, "billing_disabled"]),
  };
  app.get("/console/billing", billingRoute, async (request) => {
    const { billing } = config;
    if (!billing.enabled || billing.account === null) throw new ApiError("billing_disabled");
    const owner = await guard.requireNamespaceOwner(request, sessionOf(request), undefined);
    const memo = namespaceNode(owner.namespace);
    const at = now();
    const row = await subscriptionOf(db.db, owner.namespace);
    const payments = await recentPayments(db.db, owner.namespace, memo, RECENT_PAYMENTS);
    const price = xlm(billing.pricePerPeriod);
    return {
      namespace: owner.namespace,
      node: memo,
      state: subscriptionState(row, at),
      paidUntil: row?.activeUntil?.toISOString() ?? null,
      enforced: billingEnforced(billing, at),
      graceUntil: billing.graceUntil,
      instructions: {
        account: billing.account,
        asset: "native" as const,
        memoType: "hash" as const,
        memoHash: memo,
        pricePerPeriodXlm: price,
        periodDays: PERIOD_DAYS,
        note:
          `Pay ${price} XLM per ${PERIOD_DAYS}-day period (whole periods only) to ${billing.account} with ` +
          `MEMO_HASH ${memo}. A payment extends paid-until from the later of its own time and the current ` +
          "paid-until; anything else is held for the operator.",
      },
      payments: payments.map((p) => ({
        id: p.id,
        txHash: p.txHash,
        ledger: p.ledger,
        closedAt: p.closedAt.toISOString(),
        asset: p.asset,
        amount: p.asset === "native" ? xlm(p.amount) : p.amount.toString(),
        state: p.state as "pending" | "applied" | "quarantined" | "resolved",
        periods: p.periods,
        paidUntil: p.paidUntil?.toISOString() ?? null,
        reason: p.reason,
      })),
    };
  });

  // The one billing payment the service builds: whole periods, to the billing account, with the namespace's node
  // as MEMO_HASH (docs/billing.md), from the owner's account. Relayed by POST /console/tx/submit.
  app.post(
    "/console/billing/pay/prepare",
    {
      schema: {
        summary: "Owner: prepare paying whole billing periods, with the namespace's node as hash memo",
        body: PayBody,
        response: { 200: PayPrepared },
      },
      config: routeRules("prepare", [...CONSOLE_ERRORS, ...PREPARE_ERRORS, "billing_disabled"]),
    },
    async (request) => {
      const { billing } = config;
      if (!billing.enabled || billing.account === null) throw new ApiError("billing_disabled");
      const { namespace, periods } = request.body;
      const owner = await guard.requireNamespaceOwner(request, sessionOf(request), namespace);
      const prepared = await chainOf(chainClient).preparePayment({
        source: owner.session.account,
        destination: billing.account,
        amount: billing.pricePerPeriod * BigInt(periods),
        memoHash: namespaceNode(owner.namespace),
      });
      return { ...paymentAnswer(prepared), periods };
    },
  );
};
