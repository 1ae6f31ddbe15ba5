// The reverse hint of `GET /v1/reverse/{address}` and of `POST /v1/reverse` for up to 100 addresses (docs/api.md
// "POST /v1/reverse"): one rule for both. An address's primary name (as indexed) when it still holds it and the
// name is active and unexpired, else its newest active, unexpired name; null when it holds none. Two round trips
// for any number of addresses: the primaries and the newest names together, then whether the primaries still hold.
import { nameNode, parseName } from "@namereg/protocol";
import type { Db } from "../../../db/types.ts";
import { heldNames, newestNamesOf, primaryNamesOf } from "./queries.ts";

/** `address` → the name the reverse rule gives it, or null; for the distinct `addresses` (valid G… or C…). */
export async function reverseNames(
  mirror: Db,
  addresses: readonly string[],
  nowSeconds: number,
): Promise<Map<string, string | null>> {
  const distinct = [...new Set(addresses)];
  const [primaries, newest] = await Promise.all([
    primaryNamesOf(mirror, distinct),
    newestNamesOf(mirror, distinct, nowSeconds),
  ]);
  const primaryOf = new Map<string, { name: string; node: string }>();
  for (const { address, name } of primaries) {
    const parsed = parseName(name);
    if (parsed?.kind !== "name") continue;
    primaryOf.set(address, {
      name: `${parsed.label}.${parsed.namespace}`,
      node: nameNode(parsed.label, parsed.namespace),
    });
  }
  const held =
    primaryOf.size === 0
      ? []
      : await heldNames(mirror, [...new Set([...primaryOf.values()].map((p) => p.node))], nowSeconds);
  const holderOf = new Map(held.map((row) => [row.node, row.holder]));
  const newestOf = new Map(newest.map((row) => [row.holder, `${row.label}.${row.namespace}`]));
  return new Map(
    distinct.map((address) => {
      const primary = primaryOf.get(address);
      if (primary !== undefined && holderOf.get(primary.node) === address) return [address, primary.name];
      return [address, newestOf.get(address) ?? null];
    }),
  );
}
