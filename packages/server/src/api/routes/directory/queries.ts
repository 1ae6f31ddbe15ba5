// The mirror reads of the directory routes (directory.ts), each within the billing scope it is given.
import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
import { byteOrder } from "../../../db/byte-order.ts";
import { names, namespaceProfiles, namespaces } from "../../../db/tables.ts";
import type { Db } from "../../../db/types.ts";
import type { BillingScope } from "../../billing-scope.ts";

/** Up to `limit` names `address` holds now in namespaces of the scope, newest first, with display names. */
export function heldInDirectory(
  replica: Db,
  scope: BillingScope,
  address: string,
  nowSeconds: bigint,
  limit: number,
) {
  return (
    replica
      .select({
        label: names.label,
        namespace: names.namespace,
        displayName: namespaceProfiles.displayName,
      })
      .from(names)
      .leftJoin(namespaceProfiles, eq(namespaceProfiles.label, names.namespace))
      .where(
        and(
          eq(names.holder, address),
          // Held now: not reclaimed and not past expiry (an expired name no longer resolves).
          eq(names.active, true),
          or(isNull(names.expiresAt), gt(names.expiresAt, nowSeconds)),
          scope.filtered ? scope.subscribed(names.namespace) : undefined,
        ),
      )
      // Newest first, as names by holder; names_holder_idx (holder, issued_ledger) serves it.
      .orderBy(desc(names.issuedLedger), byteOrder(names.namespace), byteOrder(names.label))
      .limit(limit)
  );
}

/** Up to `limit` namespaces of the scope with their profiles, in byte order of their labels. */
export function directoryRoster(replica: Db, scope: BillingScope, limit: number) {
  return replica
    .select({
      label: namespaces.label,
      displayName: namespaceProfiles.displayName,
      logo: namespaceProfiles.logo,
    })
    .from(namespaces)
    .leftJoin(namespaceProfiles, eq(namespaceProfiles.label, namespaces.label))
    .where(scope.filtered ? scope.subscribed(namespaces.label) : undefined)
    .orderBy(byteOrder(namespaces.label))
    .limit(limit);
}
