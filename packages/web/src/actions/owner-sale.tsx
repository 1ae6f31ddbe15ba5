// The namespace owner's side of the marketplace in the owner console (docs/market.md "Seller flow"): list the
// namespace at a price (the fee and what the seller receives are shown as the price is typed), pay the bond, follow
// the listing's state, see the buyers holding an intent and whether the escrow holds their deposit, propose the
// transfer to one of them, withdraw the proposal, and cancel the listing after a confirmation that says what the
// cancel does to the bond and to a buyer's deposit. The transactions go through the action flow (review in words,
// sign in the owner's wallet, follow); creating and cancelling a listing are console requests, no transaction.
// Read with the owner's console session (GET /console/market/listings), again after each change and every few
// seconds while the escrow has something to do the owner waits for (a bond to see, a cancel to settle).
//
// Use: `<OwnerSale namespace="acme" />` inside the owner console (the signed-in account is the owner).
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, isNameregError, unwrap } from "../api.ts";
import { type Explained, explain } from "../errors.ts";
import { AccountLink, Defs, ErrorNote, ListingLink, Mono, useLoad } from "../ui.tsx";
import { consoleHeaders, type Session, useSession } from "../wallet/session.ts";
import type { LoadAction } from "./action.ts";
import { ActionFlow } from "./action-flow.tsx";
import { Buyers, ConfirmCancel } from "./owner-sale-buyers.tsx";
import { SettledListings } from "./owner-sale-history.tsx";
import { percent, saleFigures, xlmWords } from "./sale-terms.ts";

type Sale = Awaited<ReturnType<typeof readSale>>;
export type Open = Sale["listings"][number];
export type Settled = Sale["settled"][number];

/** How often the panel reads again while it waits for the escrow: about a ledger of `namereg dev`, a few reads on a real network. */
const FOLLOW_MS = 2000;

const readSale = (session: Session, namespace: string) =>
  unwrap(api.GET("/console/market/listings", { headers: consoleHeaders(session, namespace) }));

export function OwnerSale({ namespace }: { readonly namespace: string }): JSX.Element | null {
  const session = useSession();
  const [read, setRead] = useState(0);
  const loaded = useLoad(`sale:${namespace}:${session?.account}:${read}`, () =>
    session === null
      ? Promise.resolve(null)
      : readSale(session, namespace).catch((error: unknown) => {
          if (isNameregError(error, "market_disabled")) return "off" as const;
          throw error;
        }),
  );
  // The last answer stays on screen while the next one loads. What is shown and followed is the newest answer the
  // moment it arrives: the kept copy lags it by a render, and deciding from it stopped following too early.
  const [kept, setKept] = useState<Sale | "off" | null>(null);
  useEffect(() => {
    if (loaded.state === "ok") setKept(loaded.value);
  }, [loaded]);
  const last = loaded.state === "ok" ? loaded.value : kept;
  // Set when the owner did something the escrow answers later (paid the bond, cancelled): the panel reads again
  // until the answer is there.
  const [following, setFollowing] = useState(false);
  const waiting = last !== null && last !== "off" && awaitsEscrow(last, following);
  useEffect(() => {
    if (!waiting || loaded.state === "loading") return;
    const timer = setTimeout(() => setRead((n) => n + 1), FOLLOW_MS);
    return () => clearTimeout(timer);
  }, [waiting, loaded]);
  useEffect(() => {
    if (!waiting && following && loaded.state === "ok") setFollowing(false);
  }, [waiting, following, loaded]);

  const [run, setRun] = useState<{ readonly n: number; readonly load: LoadAction } | null>(null);
  if (session === null) return null;
  const start = (load: LoadAction) => setRun((r) => ({ n: (r?.n ?? 0) + 1, load }));
  const again = () => setRead((n) => n + 1);
  const open = last !== null && last !== "off" ? last.listings[0] : undefined;
  return (
    <section aria-labelledby="owner-sale-title">
      <h3 id="owner-sale-title">Sell this namespace</h3>
      {last === null && loaded.state === "loading" ? <p class="hint">Loading…</p> : null}
      {loaded.state === "error" ? <ErrorNote error={loaded.error} /> : null}
      {last === "off" ? <p>The marketplace is off on this service.</p> : null}
      {last !== null && last !== "off" ? (
        open === undefined ? (
          <NewListing
            namespace={namespace}
            session={session}
            terms={last.terms}
            onListed={() => {
              setFollowing(false);
              again();
            }}
          />
        ) : (
          <OpenListing
            namespace={namespace}
            session={session}
            listing={open}
            busy={run !== null}
            start={start}
            onReload={again}
            onCancelled={() => {
              setFollowing(true);
              again();
            }}
          />
        )
      ) : null}
      {run === null ? null : (
        <ActionFlow
          key={run.n}
          load={run.load}
          onDone={() => {
            setFollowing(true);
            again();
          }}
          onClose={() => setRun(null)}
        />
      )}
      {last !== null && last !== "off" && last.settled.length > 0 ? (
        <SettledListings settled={last.settled} />
      ) : null}
    </section>
  );
}

/**
 * Whether the escrow still has to act on something the owner waits for: a cancel always (the watcher settles it
 * after the next indexed ledger); after the owner's own bond payment or cancel, the bond being seen and the bond's
 * return or slash being paid.
 */
function awaitsEscrow(sale: Sale, following: boolean): boolean {
  const open = sale.listings[0];
  if (open?.state === "cancelling") return true;
  if (!following) return false;
  if (open?.state === "pending_bond") return true;
  const latest = sale.settled[0];
  return latest?.bond.payouts.some((p) => p.state === "pending" || p.state === "signed") ?? false;
}

function NewListing(props: {
  readonly namespace: string;
  readonly session: Session;
  readonly terms: Sale["terms"];
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
            : `At ${figures.priceXlm} XLM the marketplace keeps ${percent(terms.feeBps)} (${figures.feeXlm} XLM): you receive ${figures.sellerGetsXlm} XLM. Before the listing opens you pay a bond of ${figures.bondXlm} XLM into the escrow; it comes back after a sale or a cancel.`}
        </p>
        <p class="row">
          <button type="submit" disabled={sending || figures === null}>
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

function OpenListing(props: {
  readonly namespace: string;
  readonly session: Session;
  readonly listing: Open;
  readonly busy: boolean;
  readonly start: (load: LoadAction) => void;
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
  return (
    <>
      <Defs
        items={[
          ["State", STATE_WORDS[l.state]],
          ["Price", xlmWords(l.priceXlm)],
          ["Fee", `${percent(l.feeBps)} of the price, kept by the marketplace`],
          [
            "Bond",
            `${xlmWords(l.bond.amountXlm)}: ${l.bond.posted ? "in the escrow" : "not seen by the escrow yet"}`,
          ],
          ["Escrow", <AccountLink address={l.bond.to} key="e" />],
          ["Bond memo (hash)", <Mono key="m">{l.bond.memoHash}</Mono>],
          [
            "Proposal",
            proposal === null ? (
              "none"
            ) : (
              <>
                to <AccountLink address={proposal.to} />, acceptable until {proposal.expiresAt}
              </>
            ),
          ],
          ["On the market", <ListingLink namespace={namespace} key="l" />],
        ]}
      />
      {l.state === "pending_bond" ? (
        <p class="row">
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              start(() =>
                import("./selling.ts").then((m) =>
                  m.payBond(l.id, namespace, {
                    escrow: l.bond.to,
                    amountXlm: l.bond.amountXlm,
                    memoHash: l.bond.memoHash,
                  }),
                ),
              )
            }
          >
            Pay the bond of {xlmWords(l.bond.amountXlm)}
          </button>
        </p>
      ) : null}
      {l.state === "pending_bond" ? (
        <p class="hint">
          Paid it already? The listing turns active within seconds of the escrow seeing the payment; a second
          bond payment is sent back.
        </p>
      ) : null}
      {l.state === "pending_bond" ? null : (
        <Buyers namespace={namespace} listing={l} busy={busy} start={start} onReload={props.onReload} />
      )}
      {proposal === null ? null : (
        <p class="row">
          <button
            type="button"
            disabled={busy}
            onClick={() => start(() => import("./selling.ts").then((m) => m.cancelProposal(l.id, namespace)))}
          >
            Cancel the proposal
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
