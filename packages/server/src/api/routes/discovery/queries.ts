// The mirror reads of the discovery routes (discovery.ts); lookup's search has its own module (lookup.ts).
import { desc, eq, gt } from "drizzle-orm";
import { byteOrder } from "../../../db/byte-order.ts";
import { namespaceProfiles, namespaces } from "../../../db/tables.ts";
import type { Db } from "../../../db/types.ts";

/** Up to `limit` namespaces with their display names, in byte order of their labels. */
export function namespaceList(replica: Db, limit: number) {
  return replica
    .select({
      label: namespaces.label,
      displayName: namespaceProfiles.displayName,
      subnamePolicy: namespaces.subnamePolicy,
      resolver: namespaces.resolver,
      allocatedAt: namespaces.allocatedAt,
      method: namespaces.method,
    })
    .from(namespaces)
    .leftJoin(namespaceProfiles, eq(namespaceProfiles.label, namespaces.label))
    .orderBy(byteOrder(namespaces.label))
    .limit(limit);
}

/** The namespace's row and display name, if it exists. */
export async function namespaceWithProfile(replica: Db, namespace: string) {
  const [row] = await replica
    .select({ ns: namespaces, displayName: namespaceProfiles.displayName })
    .from(namespaces)
    .leftJoin(namespaceProfiles, eq(namespaceProfiles.label, namespaces.label))
    .where(eq(namespaces.label, namespace));
  return row;
}

/** The `limit` namespaces with the most names issued (ties in byte order of their labels). */
export function showcaseNamespaces(replica: Db, limit: number) {
  return (
    replica
      .select({
        label: namespaces.label,
        displayName: namespaceProfiles.displayName,
        logo: namespaceProfiles.logo,
        issuedNames: namespaces.issuedNames,
      })
      .from(namespaces)
      .leftJoin(namespaceProfiles, eq(namespaceProfiles.label, namespaces.label))
      // A namespace with no names yet is not "active"; it stays discoverable through the list and lookup.
      .where(gt(namespaces.issuedNames, 0))
      .orderBy(desc(namespaces.issuedNames), byteOrder(namespaces.label))
      .limit(limit)
  );
}
