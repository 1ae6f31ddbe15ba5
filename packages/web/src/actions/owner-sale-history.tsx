// The owner's earlier listings, sold or cancelled, and what became of each bond: part of the owner's sale panel
// (owner-sale.tsx).
import type { JSX } from "preact";
import { AccountLink, TxLink } from "../ui.tsx";
import type { Settled } from "./owner-sale.tsx";
import { xlmWords } from "./sale-terms.ts";

export function SettledListings({ settled }: { readonly settled: readonly Settled[] }): JSX.Element {
  return (
    <>
      <h4>Earlier listings</h4>
      <ul>
        {settled.map((s) => (
          <li key={s.id}>
            {s.state === "sold" ? "Sold" : "Cancelled"} at {xlmWords(s.priceXlm)}
            {s.closedAt === null ? "" : `, ${s.closedAt}`}.{" "}
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

function BondPayout({ payout: p }: { readonly payout: Settled["bond"]["payouts"][number] }): JSX.Element {
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
