// What SEP-2 federation answers from the mirror: the pay-to account (and memo) of `label*namespace`, and the
// primary name of an account. It follows the lookup contract's rule: the resolver's payment instruction wins over
// the name's built-in address, and a name resolves only while issued and unexpired. Never scoped by billing:
// forward resolution is not gated by subscriptions (docs/billing.md).
import { nameNode, parseName } from "@namereg/protocol";
import { eq } from "drizzle-orm";
import { names, namespaces, primaryNames, resolverRecords } from "../../../db/tables.ts";
import type { Db } from "../../../db/types.ts";

export interface FederationRecord {
  readonly label: string;
  readonly namespace: string;
  readonly holder: string;
  /** Where payments go: the resolver's payment address, else the name's own address. */
  readonly accountId: string;
  /** The resolver payment's memo (a text memo), or null. */
  readonly memo: string | null;
}

export async function federationRecord(
  reader: Db,
  label: string,
  namespace: string,
  nowSeconds: bigint,
): Promise<FederationRecord | null> {
  const [row] = await reader
    .select({
      name: names,
      nsResolver: namespaces.resolver,
      payGeneration: resolverRecords.generation,
      payAddress: resolverRecords.paymentAddress,
      payMemo: resolverRecords.paymentMemo,
    })
    .from(names)
    .innerJoin(namespaces, eq(namespaces.label, names.namespace))
    .leftJoin(resolverRecords, eq(resolverRecords.node, names.node))
    .where(eq(names.node, nameNode(label, namespace)));
  if (row === undefined) return null;
  const { name } = row;
  if (!name.active || (name.expiresAt !== null && name.expiresAt <= nowSeconds)) return null;
  // A payment stored for an earlier issuance belongs to a previous holder; without a resolver there is none.
  const payment =
    row.nsResolver !== null && row.payAddress !== null && row.payGeneration === name.generation
      ? { address: row.payAddress, memo: row.payMemo === "" ? null : row.payMemo }
      : null;
  return {
    label: name.label,
    namespace: name.namespace,
    holder: name.holder,
    accountId: payment?.address ?? name.address,
    memo: payment?.memo ?? null,
  };
}

/**
 * The primary name of `account` while it still resolves and still concerns the account (held by it or paying
 * to it); a stale primary record federates to nothing. Subname primaries are not federated.
 */
export async function primaryFederationRecord(
  reader: Db,
  account: string,
  nowSeconds: bigint,
): Promise<FederationRecord | null> {
  const [primary] = await reader
    .select({ name: primaryNames.name })
    .from(primaryNames)
    .where(eq(primaryNames.address, account));
  const parsed = primary === undefined ? null : parseName(primary.name);
  if (parsed?.kind !== "name") return null;
  const record = await federationRecord(reader, parsed.label, parsed.namespace, nowSeconds);
  if (record === null || (record.holder !== account && record.accountId !== account)) return null;
  return record;
}
