// The namespace owner's billing in the console: the state, paid until, how to pay (the billing account, the price
// per period, the namespace's node as hash memo), and paying whole periods through the action flow, whose review
// states the payment in words. Read with the owner's console session (GET /console/billing); a service without
// billing says so.
//
// Use: `<OwnerBilling namespace="acme" />` inside the owner console (the signed-in account is the owner).
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { Defs, ErrorNote, Mono, useLoad } from "../ui.tsx";
import { consoleHeaders, useSession } from "../wallet/session.ts";
import type { LoadAction } from "./action.ts";
import { ActionFlow } from "./action-flow.tsx";

export function OwnerBilling({ namespace }: { readonly namespace: string }): JSX.Element | null {
  const session = useSession();
  const [read, setRead] = useState(0);
  const loaded = useLoad(`bill:${namespace}:${session?.account}:${read}`, () =>
    session === null
      ? Promise.resolve(null)
      : unwrap(api.GET("/console/billing", { headers: consoleHeaders(session, namespace) })),
  );
  const [run, setRun] = useState<{ readonly n: number; readonly load: LoadAction } | null>(null);
  const [periods, setPeriods] = useState("1");
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
            return (
              <>
                <Defs
                  items={[
                    ["State", b.state],
                    ["Paid until", b.paidUntil ?? "not paid yet"],
                    ["Pay to", <Mono key="a">{i.account}</Mono>],
                    ["Price", `${i.pricePerPeriodXlm} XLM per ${i.periodDays} days`],
                    ["Memo (hash)", <Mono key="m">{i.memoHash}</Mono>],
                  ]}
                />
                <p class="hint">{i.note}</p>
                <form
                  onSubmit={(event) => {
                    event.preventDefault();
                    if (!Number.isInteger(n) || n < 1) return;
                    setRun((r) => ({
                      n: (r?.n ?? 0) + 1,
                      load: () => import("./billing.ts").then((m) => m.payBilling(namespace, n, i)),
                    }));
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
                    <button type="submit" disabled={run !== null}>
                      Pay billing
                    </button>
                  </p>
                </form>
              </>
            );
          })()
        : null}
      {run === null ? null : (
        <ActionFlow
          key={run.n}
          load={run.load}
          onDone={() => setRead((k) => k + 1)}
          onClose={() => setRun(null)}
        />
      )}
    </section>
  );
}
