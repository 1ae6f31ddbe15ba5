// The namespace owner's billing in the console: the state, paid until, how to pay (the billing account, the price
// per period, the namespace's node as hash memo), and paying whole periods through the action flow, whose review
// states the payment in words. Read with the owner's console session (GET /console/billing); a service without
// billing says so.
//
// Use: `<OwnerBilling namespace="acme" />` inside the owner console (the signed-in account is the owner).
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { amount } from "../format.ts";
import { refresh } from "../live/query.ts";
import { Defs, Details, ErrorNote, Mono, useLoad, When } from "../ui.tsx";
import { consoleHeaders, useSession } from "../wallet/session.ts";
import { useActionRun } from "./action-flow.tsx";

/** The subscription's state (docs/api.md "GET /console/billing") in words. */
const BILLING_STATES: Readonly<Record<string, string>> = {
  active: "Paid: the namespace is served",
  lapsed: "Lapsed: pay to keep the namespace served",
  suspended: "Suspended: its names are not served until a payment arrives",
};

/** How often the panel reads again while the service has yet to decide the owner's payment. */
const FOLLOW_MS = 2000;

export function OwnerBilling({ namespace }: { readonly namespace: string }): JSX.Element | null {
  const session = useSession();
  const key = `bill:${namespace}:${session?.account}`;
  const loaded = useLoad(key, () =>
    session === null
      ? Promise.resolve(null)
      : unwrap(api.GET("/console/billing", { headers: consoleHeaders(session, namespace) })),
  );
  const [periods, setPeriods] = useState("1");
  // The payment the network included last (its transaction). The billing watcher credits it on its next pass,
  // seconds later (docs/billing.md); until the read shows it decided, the state and paid-until read before it are
  // said to be from before it — not "Lapsed: pay…" as if nothing was paid — and the panel reads again.
  const [paid, setPaid] = useState<string | null>(null);
  const { start, busy, flow } = useActionRun(({ txHash }) => {
    setPeriods("1");
    setPaid(txHash);
  });
  const payment =
    loaded.state === "ok" && loaded.value !== null && paid !== null
      ? (loaded.value.payments.find((p) => p.txHash === paid) ?? null)
      : null;
  const crediting =
    loaded.state === "ok" && paid !== null && (payment === null || payment.state === "pending");
  useEffect(() => {
    if (!crediting) return;
    // In place: the answer on screen stays while the next one loads.
    const timer = setTimeout(() => refresh((k) => k === key), FOLLOW_MS);
    return () => clearTimeout(timer);
  }, [crediting, loaded]);
  if (session === null) return null;
  return (
    <section aria-labelledby="owner-billing-title">
      <h3 id="owner-billing-title">Billing</h3>
      {loaded.state === "loading" ? <p class="hint">Loading…</p> : null}
      {loaded.state === "error" ? <ErrorNote error={loaded.error} /> : null}
      {loaded.state === "ok" && loaded.value !== null
        ? (() => {
            const b = loaded.value;
            const i = b.instructions;
            const n = Number(periods);
            // While the payment waits to be credited, what was paid before it, said as such.
            const unpaid = crediting ? "not credited yet" : "not paid yet";
            const before = crediting ? ", before your payment" : undefined;
            const until =
              b.paidUntil === null ? unpaid : <When at={b.paidUntil} relative suffix={before} key="p" />;
            return (
              <>
                <Defs
                  items={[
                    [
                      "State",
                      crediting
                        ? "Your payment is in: the service credits it once it sees it"
                        : (BILLING_STATES[b.state] ?? b.state),
                    ],
                    ["Paid until", until],
                    ...(b.graceUntil === null
                      ? []
                      : ([["Grace until", <When at={b.graceUntil} relative key="g" />]] as const)),
                    ["Price", `${amount(i.pricePerPeriodXlm)} for every ${i.periodDays} days`],
                    ["Pay to", "the service's billing account, with this namespace as the memo"],
                  ]}
                />
                {payment?.state === "quarantined" ? (
                  <p>Your payment was not credited: it is held for the service's operator, who decides it.</p>
                ) : null}
                <Details>
                  <Defs
                    items={[
                      ["Billing account", <Mono key="a">{i.account}</Mono>],
                      ["Memo (hash)", <Mono key="m">{i.memoHash}</Mono>],
                    ]}
                  />
                  <p class="hint">{i.note}</p>
                </Details>
                <form
                  onSubmit={(event) => {
                    event.preventDefault();
                    if (!Number.isInteger(n) || n < 1) return;
                    start(() => import("./billing.ts").then((m) => m.payBilling(namespace, n, i)));
                  }}
                >
                  <label for="billing-periods">Periods to pay</label>
                  <input
                    id="billing-periods"
                    type="number"
                    min={1}
                    step={1}
                    required
                    value={periods}
                    onInput={(e) => setPeriods(e.currentTarget.value)}
                  />
                  <p class="row">
                    <button type="submit" disabled={busy}>
                      Pay billing
                    </button>
                  </p>
                </form>
              </>
            );
          })()
        : null}
      {flow}
    </section>
  );
}
