// The seller's listing in the owner console (docs/market.md "Seller flow"): a new listing's price with its fee, what
// the seller receives and the bond, as the price is typed; an open listing as a stepper (seller-state.ts) with the
// bond's payment, the buyers who asked, an offer to one of them, its withdrawal, and the cancel after a
// confirmation that says what it does to the bond and to a buyer's deposit. Used by owner-sale.tsx.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { type Explained, explain } from "../errors.ts";
import { amount, percent } from "../format.ts";
import { AccountLink, Defs, Details, ErrorNote, ListingLink, Mono, Table, When } from "../ui.tsx";
import { consoleHeaders, type Session } from "../wallet/session.ts";
import type { LoadAction } from "./action.ts";
import { cancelConsequences, saleFigures, xlmWords } from "./sale-terms.ts";
import { sellerSteps } from "./seller-state.ts";
import { Stepper } from "./stepper.tsx";

type Sale = Awaited<ReturnType<typeof readSale>>;
export type Open = Sale["listings"][number];

export const readSale = (session: Session, namespace: string) =>
  unwrap(api.GET("/console/market/listings", { headers: consoleHeaders(session, namespace) }));

export function NewListing(props: {
  readonly namespace: string;
  readonly session: Session;
  readonly terms: Sale["terms"];
  /** The panel is read again after a change: a listing sent now would be a second one. */
  readonly busy: boolean;
  readonly onListed: () => void;
}): JSX.Element {
  const { namespace, terms } = props;
  const [price, setPrice] = useState("");
  const [error, setError] = useState<Explained | null>(null);
  const [sending, setSending] = useState(false);
  const figures = saleFigures(price, terms);
  const list = () => {
    if (figures === null) return;
    setSending(true);
    setError(null);
    unwrap(
      api.POST("/console/market/listings", {
        body: { namespace, priceXlm: price.trim() },
        headers: consoleHeaders(props.session, namespace),
      }),
    )
      .then(props.onListed, (e: unknown) => setError(explain(e)))
      .finally(() => setSending(false));
  };
  return (
    <>
      <p>
        {namespace} is not listed for sale. <ListingLink namespace={namespace}>Past sales</ListingLink>.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          list();
        }}
      >
        <label for="sale-price">Price in XLM</label>
        <input
          id="sale-price"
          inputMode="decimal"
          autoComplete="off"
          required
          aria-describedby="sale-figures"
          value={price}
          onInput={(e) => setPrice(e.currentTarget.value)}
        />
        <p class="hint" id="sale-figures" aria-live="polite">
          {figures === null
            ? `A price in XLM, with at most 7 decimals. The marketplace keeps ${percent(terms.feeBps)} of it.`
            : `At ${amount(figures.priceXlm)} the marketplace keeps ${percent(terms.feeBps)} (${amount(figures.feeXlm)}): you receive ${amount(figures.sellerGetsXlm)}. Before the listing opens you pay a bond of ${amount(figures.bondXlm)} into the escrow; it comes back after a sale or a cancel.`}
        </p>
        <p class="row">
          <button type="submit" disabled={props.busy || sending || figures === null}>
            List {namespace} for sale
          </button>
        </p>
      </form>
      {error === null ? null : <ErrorNote error={error} />}
    </>
  );
}

const STATE_WORDS: Readonly<Record<Open["state"], string>> = {
  pending_bond: "Waiting for the bond: the listing opens to buyers once the escrow sees it.",
  active: "Active: open to buyers.",
  cancelling: "Cancel requested: the escrow settles the bond once the next ledger is indexed.",
};

export function OpenListing(props: {
  readonly namespace: string;
  readonly session: Session;
  readonly listing: Open;
  readonly busy: boolean;
  /** Runs a transaction; `bondOf` names the listing when it pays that listing's bond. */
  readonly start: (load: LoadAction, bondOf?: string) => void;
  /** The network included this listing's bond payment: the escrow has yet to see it, so none is offered again. */
  readonly bondSent: boolean;
  readonly onReload: () => void;
  readonly onCancelled: () => void;
}): JSX.Element {
  const { namespace, listing: l, busy, start } = props;
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<Explained | null>(null);
  const [sending, setSending] = useState(false);
  const cancel = () => {
    setSending(true);
    setError(null);
    unwrap(
      api.POST("/console/market/listings/{id}/cancel", {
        params: { path: { id: l.id } },
        headers: consoleHeaders(props.session, namespace),
      }),
    )
      .then(
        () => {
          setConfirming(false);
          props.onCancelled();
        },
        (e: unknown) => setError(explain(e)),
      )
      .finally(() => setSending(false));
  };
  const proposal = l.proposal;
  const bondButton = (
    <button
      type="button"
      disabled={busy}
      onClick={() =>
        start(
          () =>
            import("./selling.ts").then((m) =>
              m.payBond(l.id, namespace, {
                escrow: l.bond.to,
                amountXlm: l.bond.amountXlm,
                memoHash: l.bond.memoHash,
              }),
            ),
          l.id,
        )
      }
    >
      Pay the bond of {xlmWords(l.bond.amountXlm)}
    </button>
  );
  return (
    <>
      <p>
        {STATE_WORDS[l.state]} <ListingLink namespace={namespace}>The listing on the market</ListingLink>.
      </p>
      <Stepper
        label="Steps to sell"
        steps={sellerSteps(l, namespace, props.bondSent)}
        buttons={props.bondSent ? {} : { bond: bondButton }}
      />
      <Details>
        <Defs
          items={[
            ["Escrow account", <Mono key="e">{l.bond.to}</Mono>],
            ["Bond memo (hash)", <Mono key="m">{l.bond.memoHash}</Mono>],
            ["Listing id", <Mono key="i">{l.id}</Mono>],
          ]}
        />
      </Details>
      {l.state === "pending_bond" ? null : (
        <Buyers namespace={namespace} listing={l} busy={busy} start={start} onReload={props.onReload} />
      )}
      {proposal === null ? null : (
        <p class="row">
          <button
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() => start(() => import("./selling.ts").then((m) => m.cancelProposal(l.id, namespace)))}
          >
            Withdraw the offer
          </button>
        </p>
      )}
      {l.state === "cancelling" ? null : confirming ? (
        <ConfirmCancel
          namespace={namespace}
          listing={l}
          sending={sending}
          onCancel={cancel}
          onKeep={() => setConfirming(false)}
        />
      ) : (
        <p class="row">
          <button type="button" class="secondary" disabled={busy} onClick={() => setConfirming(true)}>
            Cancel the listing
          </button>
        </p>
      )}
      {error === null ? null : <ErrorNote error={error} />}
    </>
  );
}

function Buyers(props: {
  readonly namespace: string;
  readonly listing: Open;
  readonly busy: boolean;
  readonly start: (load: LoadAction) => void;
  readonly onReload: () => void;
}): JSX.Element {
  const { namespace, listing: l } = props;
  const open = l.state === "active";
  return (
    <>
      <h4>Buyers</h4>
      <Table
        caption="Buyers who asked to buy"
        headings={["Buyer", "Request valid until", "Deposit", "Offer"]}
        empty="No buyer has asked yet: a buyer starts on the listing's page, then you offer them the namespace."
        rows={l.intents.map((i) => [
          <AccountLink address={i.buyer} key="b" />,
          <When at={i.expiresAt} key="w" />,
          i.funded ? "in the escrow" : "not paid",
          l.proposal?.to === i.buyer ? (
            <>
              offered, until <When at={l.proposal.expiresAt} relative />
            </>
          ) : open ? (
            <button
              type="button"
              key="p"
              disabled={props.busy}
              onClick={() =>
                props.start(() =>
                  import("./selling.ts").then((m) => m.proposeTransfer(l.id, namespace, i.buyer)),
                )
              }
            >
              Offer {namespace} to {shortAccount(i.buyer)}
            </button>
          ) : (
            "not offered"
          ),
        ])}
      />
      <p class="row">
        <button type="button" class="secondary" onClick={props.onReload}>
          Check for new buyers
        </button>
      </p>
    </>
  );
}

/** What cancelling does, in words, from what the page knows now; the focus moves to the answer. */
function ConfirmCancel(props: {
  readonly namespace: string;
  readonly listing: Open;
  readonly sending: boolean;
  readonly onCancel: () => void;
  readonly onKeep: () => void;
}): JSX.Element {
  const { namespace, listing: l } = props;
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => yes.current?.focus(), []);
  return (
    <fieldset>
      <legend>Cancel the listing of {namespace}?</legend>
      {cancelConsequences(l).map((line) => (
        <p key={line}>{line}</p>
      ))}
      <p class="row">
        <button type="button" ref={yes} disabled={props.sending} onClick={props.onCancel}>
          Yes, cancel the listing
        </button>{" "}
        <button type="button" class="secondary" onClick={props.onKeep}>
          Keep the listing
        </button>
      </p>
    </fieldset>
  );
}

const shortAccount = (account: string) => `${account.slice(0, 4)}…${account.slice(-4)}`;
