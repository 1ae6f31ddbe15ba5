// The namespace owner's side of the marketplace in the owner console (docs/market.md "Seller flow"): list the
// namespace at a price (the fee and what the seller receives are shown as the price is typed), pay the bond, follow
// the listing's state, see the buyers holding an intent and whether the escrow holds their deposit, propose the
// transfer to one of them, withdraw the proposal, and cancel the listing after a confirmation that says what the
// cancel does to the bond and to a buyer's deposit. The transactions go through the action flow (review in words,
// sign in the owner's wallet, follow); creating and cancelling a listing are console requests, no transaction.
// Read with the owner's console session (GET /console/market/listings), again after each change and every few
// seconds while the listing is open (the buyer or the escrow may move next). Once the buyer accepts, the namespace
// is theirs and the console refuses the seller: the panel then shows the sale (seller-receipt.tsx).
//
// Use: `<OwnerSale namespace="acme" />` inside the owner console (the signed-in account is the owner).
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, isNameregError, unwrap } from "../api.ts";
import { refresh } from "../live/query.ts";
import { ErrorNote, useLoad } from "../ui.tsx";
import { useSession } from "../wallet/session.ts";
import type { LoadAction } from "./action.ts";
import { useActionRun } from "./action-flow.tsx";
import { NewListing, OpenListing, readSale } from "./seller-listing.tsx";
import { rememberOffer, SettledListings, SoldReceipt } from "./seller-receipt.tsx";

type Sale = Awaited<ReturnType<typeof readSale>>;

/** How often the panel reads again while it waits for the escrow: about a ledger of `namereg dev`, a few reads on a real network. */
const FOLLOW_MS = 2000;
/** How often it reads while the listing waits on a buyer: their request, deposit or acceptance. */
const WATCH_MS = 4000;

export function OwnerSale({ namespace }: { readonly namespace: string }): JSX.Element | null {
  const session = useSession();
  const [read, setRead] = useState(0);
  // The offered buyer's deposit, once seen in the escrow: from then on the buyer may accept at any moment, and the
  // public buyer state says so first — asking the console then would be refused (the seller no longer owns it).
  // The console (which reads the owner live) refuses the seller the moment the acceptance is on chain, before the
  // indexed buyer state says so: while the deposit waits on the buyer, the panel's own follow-up reads ask only the
  // buyer state; a read the seller asks for (an action, "Check for new buyers") still goes to the console.
  const funded = useRef<{ readonly listingId: string; readonly buyer: string } | null>(null);
  const asked = useRef(true);
  const shown = useRef<Sale | "off" | "gone" | null>(null);
  const loaded = useLoad(`sale:${namespace}:${session?.account}:${read}`, async () => {
    if (session === null) return null;
    const byHand = asked.current;
    asked.current = false;
    if (funded.current !== null && !byHand)
      return (await accepted(funded.current)) ? ("gone" as const) : shown.current;
    return readSale(session, namespace).catch((error: unknown) => {
      if (isNameregError(error, "market_disabled")) return "off" as const;
      // Sold (or reclaimed): the namespace is no longer the seller's, and the receipt says what happened.
      if (isNameregError(error, "not_namespace_owner")) return "gone" as const;
      throw error;
    });
  });
  // After the owner's own change the answer on screen is from before it: until the next one is there the panel says
  // so and its controls wait (a listing, offer, withdrawal or cancel sent on it would repeat the change, or be
  // refused); a read that fails then is asked again.
  const [changed, setChanged] = useState(false);
  useEffect(() => {
    if (loaded.state === "ok") setChanged(false);
  }, [loaded]);
  const rereading = changed && loaded.state !== "ok";
  // The last answer stays on screen while the next one loads. What is shown and followed is the newest answer the
  // moment it arrives: the kept copy lags it by a render, and deciding from it stopped following too early.
  const [kept, setKept] = useState<Sale | "off" | "gone" | null>(null);
  useEffect(() => {
    if (loaded.state === "ok") setKept(loaded.value);
  }, [loaded]);
  const last = loaded.state === "ok" ? loaded.value : kept;
  shown.current = last;
  // Set when the owner did something the escrow answers later (paid the bond, cancelled): the panel reads again
  // until the answer is there.
  const [following, setFollowing] = useState(false);
  const sale = last !== null && last !== "off" && last !== "gone" ? last : null;
  const waiting = sale !== null && awaitsEscrow(sale, following);
  const watching = sale !== null && sale.listings[0]?.state === "active";
  useEffect(() => {
    if ((!waiting && !watching && !changed) || loaded.state === "loading") return;
    const timer = setTimeout(
      () => {
        if (changed) asked.current = true;
        setRead((n) => n + 1);
      },
      waiting || changed ? FOLLOW_MS : WATCH_MS,
    );
    return () => clearTimeout(timer);
  }, [waiting, watching, changed, loaded]);
  // The live offer is remembered, so the sale can be shown once the console no longer answers the seller.
  const offer = sale?.listings[0]?.proposal ?? null;
  const listingId = sale?.listings[0]?.id ?? null;
  funded.current =
    offer !== null &&
    listingId !== null &&
    sale?.listings[0]?.intents.some((i) => i.buyer === offer.to && i.funded)
      ? { listingId, buyer: offer.to }
      : sale === null
        ? funded.current
        : null;
  useEffect(() => {
    if (offer !== null && listingId !== null && session !== null)
      rememberOffer(namespace, { listingId, buyer: offer.to, seller: session.account });
  }, [offer?.to, listingId]);
  useEffect(() => {
    if (!waiting && following && loaded.state === "ok") setFollowing(false);
  }, [waiting, following, loaded]);

  // The listing whose bond payment the network included: the escrow opens it once it sees the payment, and until
  // then the answer still asks for a bond, which would be a second payment (the escrow only sends it back).
  const [bonded, setBonded] = useState<string | null>(null);
  const sent = useRef<string | null>(null);
  const { start, busy, flow } = useActionRun(() => {
    if (sent.current !== null) setBonded(sent.current);
    asked.current = true;
    setChanged(true);
    setFollowing(true);
    setRead((n) => n + 1);
  });
  const run = (load: LoadAction, bondOf?: string) => {
    sent.current = bondOf ?? null;
    start(load);
  };
  const open = sale?.listings[0];
  // The page's own listing summary agrees with the panel: listed, cancelling, gone (a cancel has no chain change to
  // hear on the stream).
  useEffect(() => refresh((key) => key.startsWith("listings")), [open?.id, open?.state, last === "gone"]);
  if (session === null) return null;
  const again = () => {
    asked.current = true;
    setRead((n) => n + 1);
  };
  const afterChange = () => {
    setChanged(true);
    again();
  };
  return (
    <section aria-labelledby="owner-sale-title">
      <h3 id="owner-sale-title">Sell this namespace</h3>
      {last === null && loaded.state === "loading" ? <p class="hint">Loading…</p> : null}
      {loaded.state === "error" ? <ErrorNote error={loaded.error} /> : null}
      {rereading && sale !== null ? <p class="hint">Reading the listing again after your change…</p> : null}
      {last === "off" ? <p>The marketplace is off on this service.</p> : null}
      {last === "gone" ? <SoldReceipt namespace={namespace} account={session.account} /> : null}
      {sale !== null ? (
        open === undefined ? (
          <NewListing
            namespace={namespace}
            session={session}
            terms={sale.terms}
            busy={rereading}
            onListed={() => {
              setFollowing(false);
              afterChange();
            }}
          />
        ) : (
          <OpenListing
            namespace={namespace}
            session={session}
            listing={open}
            busy={busy || rereading}
            start={run}
            bondSent={bonded === open.id}
            onReload={again}
            onCancelled={() => {
              setFollowing(true);
              afterChange();
            }}
          />
        )
      ) : null}
      {flow}
      {sale !== null && sale.settled.length > 0 ? <SettledListings settled={sale.settled} /> : null}
    </section>
  );
}

/** Whether the offered buyer has accepted: the public buyer state (docs/api.md "Marketplace") says so. */
async function accepted(offer: { readonly listingId: string; readonly buyer: string }): Promise<boolean> {
  const state = await unwrap(
    api.GET("/v1/market/listings/{id}/buyers/{account}", {
      params: { path: { id: offer.listingId, account: offer.buyer } },
    }),
  );
  return state.settlement.state === "accepted" || state.settlement.state === "sold_to_you";
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
