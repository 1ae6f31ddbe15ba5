// What a listing at a given price means for its seller, before it is created (docs/market.md "Seller flow"): the
// marketplace's fee (floor of price × feeBps / 10000), what the seller receives, and the bond, max(price × bondBps /
// 10000, bondMinXlm XLM); and what cancelling an open listing does to the bond and to a buyer's deposit. The same integer arithmetic as the server's (protocol's applyBps), written here in a few
// lines because the panel that shows it as the owner types loads no SDK (@namereg/protocol brings it).
import { amount, dateTime, fromBaseUnits } from "../format.ts";

const STROOPS = 10_000_000n;

export interface SaleTerms {
  readonly feeBps: number;
  readonly bondBps: number;
  readonly bondMinXlm: number;
}

export interface SaleFigures {
  readonly priceXlm: string;
  readonly feeXlm: string;
  readonly sellerGetsXlm: string;
  readonly bondXlm: string;
}

/** An XLM amount as the listing route takes it ("20", "12.5"; up to 7 decimals) in stroops, else null. */
export function xlmToStroops(text: string): bigint | null {
  const match = /^(\d{1,12})(?:\.(\d{1,7}))?$/.exec(text.trim());
  if (match === null) return null;
  return BigInt(match[1] ?? "0") * STROOPS + BigInt((match[2] ?? "").padEnd(7, "0"));
}

/** The figures of a sale at `priceText`, or null when it is not a price the listing route takes (more than 0). */
export function saleFigures(priceText: string, terms: SaleTerms): SaleFigures | null {
  const price = xlmToStroops(priceText);
  if (price === null || price <= 0n) return null;
  const fee = (price * BigInt(terms.feeBps)) / 10_000n;
  const share = (price * BigInt(terms.bondBps)) / 10_000n;
  const floor = BigInt(terms.bondMinXlm) * STROOPS;
  const xlm = (stroops: bigint) => fromBaseUnits(stroops.toString(), 7);
  return {
    priceXlm: xlm(price),
    feeXlm: xlm(fee),
    sellerGetsXlm: xlm(price - fee),
    bondXlm: xlm(share > floor ? share : floor),
  };
}

/** An XLM amount as the API writes it ("20.0000000") the way a person does ("20 XLM"): format.ts `amount`. */
export const xlmWords = (xlm: string): string => amount(xlm);

/** An open listing as GET /console/market/listings gives it, as far as its cancel's consequences depend on it. */
export interface OpenListingFacts {
  readonly state: "pending_bond" | "active" | "cancelling";
  readonly bond: { readonly amountXlm: string };
  readonly intents: readonly { readonly buyer: string; readonly funded: boolean }[];
  readonly proposal: { readonly to: string; readonly expiresAt: string } | null;
}

/** What cancelling the listing does, one sentence a line (docs/market.md "Seller flow", step 4). */
export function cancelConsequences(l: OpenListingFacts): readonly string[] {
  if (l.state === "pending_bond")
    return [
      "The listing closes. The escrow has not seen its bond; a bond payment still on its way is sent back to you.",
    ];
  const bond = xlmWords(l.bond.amountXlm);
  const funded = l.intents.filter((i) => i.funded);
  const proposal = l.proposal;
  const lines = ["The listing closes to new buyers."];
  if (funded.length === 0) {
    lines.push(
      `No buyer's deposit is in the escrow: your bond of ${bond} comes back to you once the escrow settles the cancel.`,
    );
    if (proposal !== null)
      lines.push(
        `Your offer to ${proposal.to} stays live on the registry until ${dateTime(proposal.expiresAt)}: withdraw the offer first, or they can take the namespace without paying.`,
      );
    return lines;
  }
  for (const i of funded)
    lines.push(
      proposal?.to === i.buyer
        ? `${i.buyer} has paid a deposit and your offer to them is live: if they accept it, the sale stands and you are paid. If you withdraw the offer or let it lapse, their deposit is refunded and your bond of ${bond} is paid to them.`
        : `${i.buyer} has paid a deposit: it is refunded to them, and your bond of ${bond} is paid to them.`,
    );
  return lines;
}
