// The seller's side after the sale: once the buyer accepts, the namespace is theirs and the owner console no longer
// answers the seller (403 not_namespace_owner), so what the seller reads comes from the public buyer state of the
// buyer the seller offered it to (GET /v1/market/listings/{id}/buyers/{account}: the sale and the seller's
// payout). The offer is remembered in this tab (sessionStorage) when the panel sees it, so the receipt is there
// after the sale and after a reload. Also the listings that ended earlier, from the console while the seller owns.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { amount } from "../format.ts";
import { AccountLink, TxLink, When } from "../ui.tsx";
import { xlmWords } from "./sale-terms.ts";

/** How often the receipt asks again while the escrow is paying the seller. */
const FOLLOW_MS = 3000;
const key = (namespace: string) => `namereg.offer.${namespace}`;

/** The offer the seller's panel last saw live: which listing, to which buyer. */
export interface RememberedOffer {
  readonly listingId: string;
  readonly buyer: string;
  readonly seller: string;
}

export function rememberOffer(namespace: string, offer: RememberedOffer): void {
  try {
    sessionStorage.setItem(key(namespace), JSON.stringify(offer));
  } catch {
    // Storage refused: the receipt is shown while the page stays open only.
  }
}

function remembered(namespace: string): RememberedOffer | null {
  try {
    const raw = sessionStorage.getItem(key(namespace));
    return raw === null ? null : (JSON.parse(raw) as RememberedOffer);
  } catch {
    return null;
  }
}

type Sale = NonNullable<Awaited<ReturnType<typeof readSale>>["settlement"]["sale"]>;

const readSale = (offer: RememberedOffer) =>
  unwrap(
    api.GET("/v1/market/listings/{id}/buyers/{account}", {
      params: { path: { id: offer.listingId, account: offer.buyer } },
    }),
  );

/**
 * "Sold to … — you received 487.5 XLM", with the payout's transaction, for the signed-in seller of the namespace's
 * last offer once that buyer has accepted; nothing otherwise.
 */
export function SoldReceipt(props: {
  readonly namespace: string;
  readonly account: string;
}): JSX.Element | null {
  const offer = remembered(props.namespace);
  const [sale, setSale] = useState<{ readonly buyer: string; readonly sale: Sale | null } | null>(null);
  const [tick, setTick] = useState(0);
  const mine = offer !== null && offer.seller === props.account;
  useEffect(() => {
    if (!mine) return;
    let current = true;
    readSale(offer).then(
      (s) => {
        if (!current) return;
        const settled = s.settlement.state === "sold_to_you" || s.settlement.state === "accepted";
        setSale(settled ? { buyer: offer.buyer, sale: s.settlement.sale } : null);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [mine, tick]);
  const paid = sale?.sale?.sellerPayout?.state === "paid";
  useEffect(() => {
    if (!mine || paid) return;
    const timer = setTimeout(() => setTick((n) => n + 1), FOLLOW_MS);
    return () => clearTimeout(timer);
  }, [mine, paid, tick]);
  if (sale === null) return null;
  const payout = sale.sale?.sellerPayout ?? null;
  return (
    <div class="receipt" role="status">
      <h4>
        Sold to <AccountLink address={sale.buyer} />
        {payout === null
          ? ""
          : paid
            ? ` — you received ${amount(payout.amountXlm)}`
            : ` — the escrow is paying you ${amount(payout.amountXlm)}`}
      </h4>
      {sale.sale === null ? (
        <p>The buyer accepted {props.namespace}; the escrow is settling the sale.</p>
      ) : (
        <p>
          {props.namespace} sold for {amount(sale.sale.priceXlm)} on <When at={sale.sale.settledAt} />; the
          marketplace kept {amount(sale.sale.feeXlm)}.
          {payout?.txHash == null ? null : (
            <>
              {" "}
              Your payment: transaction <TxLink hash={payout.txHash} />.
            </>
          )}
        </p>
      )}
    </div>
  );
}

type SettledListing = {
  readonly id: string;
  readonly state: "sold" | "closed";
  readonly priceXlm: string;
  readonly closedAt: string | null;
  readonly bond: {
    readonly payouts: readonly {
      readonly purpose: "bond_return" | "slash";
      readonly to: string;
      readonly amountXlm: string;
      readonly state: string;
      readonly txHash: string | null;
    }[];
  };
};

export function SettledListings({ settled }: { readonly settled: readonly SettledListing[] }): JSX.Element {
  return (
    <>
      <h4>Earlier listings</h4>
      <ul>
        {settled.map((s) => (
          <li key={s.id}>
            {s.state === "sold" ? "Sold" : "Cancelled"} at {xlmWords(s.priceXlm)}
            {s.closedAt === null ? (
              ""
            ) : (
              <>
                {", "}
                <When at={s.closedAt} />
              </>
            )}
            .{" "}
            {s.bond.payouts.length === 0
              ? s.state === "sold"
                ? "No bond payout recorded."
                : "No bond was posted."
              : s.bond.payouts.map((p) => <BondPayout payout={p} key={`${p.purpose}:${p.to}`} />)}
          </li>
        ))}
      </ul>
    </>
  );
}

function BondPayout({
  payout: p,
}: {
  readonly payout: SettledListing["bond"]["payouts"][number];
}): JSX.Element {
  const bond = `Bond of ${xlmWords(p.amountXlm)}`;
  const to = p.purpose === "bond_return" ? "returned to" : "paid to the buyer";
  if (p.state === "paid" || p.state === "released")
    return (
      <span>
        {bond} {to} <AccountLink address={p.to} /> in transaction{" "}
        {p.txHash === null ? "(not recorded)" : <TxLink hash={p.txHash} />}.
      </span>
    );
  const toBe = p.purpose === "bond_return" ? "to be returned to" : "to be paid to the buyer";
  return (
    <span>
      {bond} {toBe} <AccountLink address={p.to} />:{" "}
      {p.state === "parked" ? "held for the service's operator to decide." : "the escrow is sending it."}
    </span>
  );
}
