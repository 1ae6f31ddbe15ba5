// The mirror reads of the discovery routes (discovery.ts); lookup's search has its own module (lookup.ts).
import { and, count, desc, eq, gt, type SQL, sql } from "drizzle-orm";
import { byteOrder } from "../../../db/byte-order.ts";
import { names, namespaceProfiles, namespaces, subnames } from "../../../db/tables.ts";
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

/** Whether the namespace is allocated (in the mirror). */
export async function namespaceExists(replica: Db, namespace: string): Promise<boolean> {
  const [row] = await replica
    .select({ node: namespaces.node })
    .from(namespaces)
    .where(eq(namespaces.label, namespace))
    .limit(1);
  return row !== undefined;
}

/**
 * Up to `limit` names issued and not reclaimed in `namespace`, in byte order of their labels after the label
 * `after` (from the first when undefined), each with the count of its existing subnames in the mirror. The keyset
 * `label ~>~ after` and the order `~<~` are those of the `names_ns_label_pattern_idx` index.
 */
export function namesOfNamespace(replica: Db, namespace: string, after: string | undefined, limit: number) {
  const where: SQL[] = [eq(names.namespace, namespace), eq(names.active, true)];
  if (after !== undefined) where.push(sql`${names.label} ~>~ ${after}`);
  const children = replica
    .select({ n: count() })
    .from(subnames)
    .where(and(eq(subnames.parentNode, names.node), eq(subnames.exists, true)));
  return replica
    .select({
      label: names.label,
      holder: names.holder,
      expiresAt: names.expiresAt,
      issuedLedger: names.issuedLedger,
      issuedAt: names.issuedAt,
      subnames: sql<number>`(${children})`.mapWith(Number),
    })
    .from(names)
    .where(and(...where))
    .orderBy(byteOrder(names.label))
    .limit(limit);
}
