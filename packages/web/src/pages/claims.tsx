// The claim queue (pending, objected, awarded): each claim with its basis, evidence, the claimant's response and
// its objections, as a card per claim (readable at phone width without a table); the claimant's controls, announcing
// a claim, and a quote of the claim fee.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { AnnouncePanel } from "../actions/announce-panel.tsx";
import { ClaimantPanel } from "../actions/claimant-panel.tsx";
import { api, unwrap } from "../api.ts";
import { amount, baseUnitsAmount, objectionWindow, percent } from "../format.ts";
import {
  AccountLink,
  Defs,
  NameLink,
  NamespaceLink,
  Page,
  Section,
  UserLink,
  UserText,
  useLoad,
  When,
} from "../ui.tsx";
import { basis, claimState, feeOutcome } from "../words.ts";

type Queue = Awaited<ReturnType<typeof loadQueue>>;
type Claim = Queue["pending"][number];

const loadQueue = () => unwrap(api.GET("/v1/allocations"));

/** The claimant: its primary name as a link when it has one (the API then names it), and its account. */
function Claimant({ claim }: { readonly claim: Claim }): JSX.Element {
  if (claim.claimant === claim.claimantAccount) return <AccountLink address={claim.claimantAccount} />;
  return (
    <>
      <NameLink name={claim.claimant} /> (<AccountLink address={claim.claimantAccount} />)
    </>
  );
}

function ClaimCard({ claim }: { readonly claim: Claim }): JSX.Element {
  const titleId = `claim-${claim.id}-title`;
  return (
    <article class="card" id={`claim-${claim.id}`} tabIndex={-1} aria-labelledby={titleId}>
      <h3 id={titleId}>
        Claim {claim.id}: <NamespaceLink namespace={claim.namespace} />
      </h3>
      <Defs
        items={[
          ["State", claimState(claim.state)],
          ["Claimant", <Claimant claim={claim} key="c" />],
          ["Basis", claim.basis.length === 0 ? "none given" : claim.basis.map(basis).join(", ")],
          [
            "Evidence",
            claim.evidence.length === 0 ? (
              "none given"
            ) : (
              <ul class="plain" key="e">
                {claim.evidence.map((e) => (
                  <li key={e.url}>
                    <UserText text={e.label} />: <UserLink value={e.url} />
                  </li>
                ))}
              </ul>
            ),
          ],
          [
            "Claimant's response",
            claim.claimantResponse === null ? "none" : <UserText text={claim.claimantResponse} key="r" />,
          ],
          ["Announced", `ledger ${claim.announcedLedger}`],
          [
            "Objection window",
            // An awarded claim's window is closed and says when it was awarded; the deadline decides nothing now.
            claim.state === "awarded" ? (
              <>
                {objectionWindow(claim)}
                {claim.awardedAt === null ? null : (
                  <>
                    {" "}
                    (<When at={claim.awardedAt} />)
                  </>
                )}
              </>
            ) : (
              <>
                {objectionWindow(claim)} (until <When at={claim.deadline} />)
              </>
            ),
          ],
          [
            "Objections",
            claim.objections.length === 0 ? (
              "none"
            ) : (
              <ul class="plain" key="o">
                {claim.objections.map((o) => (
                  <li key={o.objector}>
                    <AccountLink address={o.objector} /> on the basis of {o.basis.map(basis).join(", ")}, with
                    a bond of {amount(o.bondXlm)}
                  </li>
                ))}
              </ul>
            ),
          ],
        ]}
      />
    </article>
  );
}

function Group(props: { id: string; title: string; claims: readonly Claim[]; empty: string }): JSX.Element {
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.claims.length === 0 ? (
        <p>{props.empty}</p>
      ) : (
        props.claims.map((c) => <ClaimCard claim={c} key={c.id} />)
      )}
    </section>
  );
}

export function ClaimsPage(): JSX.Element {
  // Read again after the claimant withdraws a claim (ClaimantPanel) or announces one (AnnouncePanel).
  const [read, setRead] = useState(0);
  const queue = useLoad(`allocations:${read}`, loadQueue);
  // Claims whose withdrawal the network included: gone from the queue at once. The mirror indexes a withdrawal a
  // moment later and no change on the stream says so, so the queue read just after it would list the claim as open,
  // with a Withdraw that would be refused, until the page is reloaded.
  const [withdrawn, setWithdrawn] = useState<readonly string[]>([]);
  const open = (claims: readonly Claim[]) => claims.filter((c) => !withdrawn.includes(c.id));
  // `/claims#claim-1` (a claim's link elsewhere in the app): once the queue is shown, go to that claim.
  useEffect(() => {
    if (queue.state !== "ok" || !location.hash.startsWith("#claim-")) return;
    const card = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    card?.scrollIntoView();
    card?.focus();
  }, [queue.state]);
  return (
    <Page title="Claim queue">
      <Section
        loaded={queue}
        render={(q) => (
          <>
            {q.ledger === null ? null : <p>As of ledger {q.ledger}.</p>}
            <Group
              id="pending-title"
              title="Pending"
              claims={open(q.pending)}
              empty="No claim is waiting out its objection window."
            />
            <Group
              id="objected-title"
              title="Objected"
              claims={open(q.objected)}
              empty="No claim is objected."
            />
            <Group
              id="awarded-title"
              title="Awarded"
              claims={q.awarded}
              empty="No claim was awarded lately."
            />
          </>
        )}
      />
      {/* Outside the queue's section: reading the queue again must not unmount a running action. */}
      <ClaimantPanel
        open={queue.state === "ok" ? open([...queue.value.pending, ...queue.value.objected]) : null}
        onChanged={(id) => {
          if (id !== null) setWithdrawn((w) => [...w, id]);
          setRead((n) => n + 1);
        }}
      />
      <AnnouncePanel onChanged={() => setRead((n) => n + 1)} />
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
        const units = (value: string) => baseUnitsAmount(value, f.policy.decimals, f.policy.asset);
        return (
          <Defs
            items={[
              ["Namespace", f.label],
              ["Fee", units(f.policy.amount)],
              ["Paid to", <AccountLink address={f.policy.recipient} key="r" />],
              ["Refund if awarded", percent(f.policy.refundBps.Awarded ?? 0)],
              ["Refund if rejected", percent(f.policy.refundBps.Rejected ?? 0)],
              [
                "Already paid",
                f.receipt === null ? (
                  "no"
                ) : (
                  <>
                    {units(f.receipt.amount)} by <AccountLink address={f.receipt.claimant} /> (
                    {feeOutcome(f.receipt.outcome)})
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
