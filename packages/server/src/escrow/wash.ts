// Wash-flagged sales are kept but left out of the public history (docs/market.md): a sale to the seller itself,
// or one that returns the namespace to an account that sold it within the last 30 days.
import { and, eq, gte } from "drizzle-orm";
import { marketSales } from "../db/tables.ts";
import type { Db } from "../db/types.ts";

export const WASH_WINDOW_MS = 30 * 86_400_000;

export async function isWashSale(
  db: Db,
  sale: { node: string; seller: string; buyer: string; settledAt: Date },
): Promise<boolean> {
  if (sale.buyer === sale.seller) return true;
  const since = new Date(sale.settledAt.getTime() - WASH_WINDOW_MS);
  const earlier = await db
    .select({ id: marketSales.id })
    .from(marketSales)
    .where(
      and(
        eq(marketSales.node, sale.node),
        eq(marketSales.seller, sale.buyer),
        gte(marketSales.settledAt, since),
      ),
    )
    .limit(1);
  return earlier.length > 0;
}
