// The claim queue (pending, objected, awarded, each with its objections) and a quote of the claim fee for a label.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { fromBaseUnits, objectionWindow } from "../format.ts";
import { AccountLink, Defs, NamespaceLink, Page, Section, Table, useLoad } from "../ui.tsx";

type Queue = Awaited<ReturnType<typeof loadQueue>>;
type Claim = Queue["pending"][number];

const loadQueue = () => unwrap(api.GET("/v1/allocations"));

function claimRows(list: readonly Claim[]) {
  return list.map((c) => [
    <NamespaceLink namespace={c.namespace} key="n" />,
    <AccountLink address={c.claimantAccount} key="a" />,
    c.state,
    String(c.announcedLedger),
    objectionWindow(c),
    c.objections.length === 0
      ? "none"
      : c.objections.map((o) => (
          <span key={o.objector}>
            <AccountLink address={o.objector} /> ({o.basis.join(", ")}; bond {o.bondXlm} XLM){" "}
          </span>
        )),
  ]);
}

const HEADINGS = ["Namespace", "Claimant", "State", "Announced (ledger)", "Objection window", "Objections"];

export function ClaimsPage(): JSX.Element {
  const queue = useLoad("allocations", loadQueue);
  return (
    <Page title="Claim queue">
      <Section
        loaded={queue}
        render={(q) => (
          <>
            {q.ledger === null ? null : <p>As of ledger {q.ledger}.</p>}
            <h2>Pending</h2>
            <Table caption="Pending claims" headings={HEADINGS} rows={claimRows(q.pending)} />
            <h2>Objected</h2>
            <Table caption="Objected claims" headings={HEADINGS} rows={claimRows(q.objected)} />
            <h2>Awarded</h2>
            <Table caption="Awarded claims" headings={HEADINGS} rows={claimRows(q.awarded)} />
          </>
        )}
      />
      <Quote />
    </Page>
  );
}

function Quote(): JSX.Element {
  const [typed, setTyped] = useState("");
  const [label, setLabel] = useState<string | null>(null);
  return (
    <section aria-labelledby="quote-title">
      <h2 id="quote-title">Claim fee</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setLabel(typed.trim().toLowerCase() || null);
        }}
      >
        <label for="quote-label">Namespace to claim</label>
        <div class="row">
          <input
            id="quote-label"
            value={typed}
            autocomplete="off"
            spellcheck={false}
            onInput={(e) => setTyped(e.currentTarget.value)}
          />
          <button type="submit">Quote</button>
        </div>
      </form>
      {label === null ? null : <QuoteAnswer label={label} />}
    </section>
  );
}

function QuoteAnswer({ label }: { readonly label: string }): JSX.Element {
  const quote = useLoad(`fee:${label}`, () =>
    unwrap(api.GET("/v1/claim-fee/{label}", { params: { path: { label } } })),
  );
  return (
    <Section
      loaded={quote}
      render={(f) => {
        // The quote and the receipt are in base units (stroops for XLM): shown in the asset's own unit.
        const units = (amount: string) => `${fromBaseUnits(amount, f.policy.decimals)} ${f.policy.asset}`;
        return (
          <Defs
            items={[
              ["Namespace", f.label],
              ["Fee", units(f.policy.amount)],
              ["Paid to", <AccountLink address={f.policy.recipient} key="r" />],
              ["Refund if awarded", `${f.policy.refundBps.Awarded / 100} %`],
              ["Refund if rejected", `${f.policy.refundBps.Rejected / 100} %`],
              [
                "Already paid",
                f.receipt === null ? (
                  "no"
                ) : (
                  <>
                    {units(f.receipt.amount)} by <AccountLink address={f.receipt.claimant} /> (
                    {f.receipt.outcome})
                  </>
                ),
              ],
            ]}
          />
        );
      }}
    />
  );
}
