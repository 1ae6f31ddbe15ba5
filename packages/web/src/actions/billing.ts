// Paying a namespace's billing from the owner console (docs/api.md billing section): whole periods to the billing
// account with the namespace's node as hash memo, through POST /console/billing/pay/prepare and POST
// /console/tx/submit. What the payment must be is computed from GET /console/billing's instructions (the account and
// the price per period), not from the prepare answer, so verifyPreparedPayment holds the answer to it. Loaded when
// the action runs (see action.ts).
import { namespaceNode, stroopsToXlm, xlmToStroops } from "@namereg/protocol";
import { api, unwrap } from "../api.ts";
import { consoleHeaders } from "../wallet/session.ts";
import type { Action, PreparedPayment } from "./action.ts";

/** Pays `periods` billing periods of `namespace`, at `pricePerPeriodXlm` each, to the billing `account`. */
export function payBilling(
  namespace: string,
  periods: number,
  instructions: { readonly account: string; readonly pricePerPeriodXlm: string },
): Action {
  const amountXlm = stroopsToXlm(xlmToStroops(instructions.pricePerPeriodXlm) * BigInt(periods));
  return {
    title: `Pay ${periods} billing period${periods === 1 ? "" : "s"} of ${namespace}`,
    async prepare(_wallet, session): Promise<PreparedPayment> {
      const prepared = await unwrap(
        api.POST("/console/billing/pay/prepare", {
          body: { namespace, periods },
          headers: consoleHeaders(session, namespace),
        }),
      );
      return {
        kind: "payment",
        xdr: prepared.xdr,
        network: prepared.network,
        destinationWords: "the service's billing account",
        expected: {
          destination: instructions.account,
          amountXlm,
          memoHash: namespaceNode(namespace.toLowerCase()),
        },
        memoWords: `the node of namespace ${namespace}, which the payment is for`,
        submit: { route: "console", namespace },
      };
    },
  };
}
