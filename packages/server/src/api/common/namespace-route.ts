// Which registrar and resolver serve a namespace, for the subname and network-address routes: from the mirror,
// since routing changes are indexed events (docs/contracts.md "Which contracts are followed").
import { eq } from "drizzle-orm";
import { namespaces } from "../../db/tables.ts";
import type { Database } from "../../db/types.ts";
import { ApiError } from "../errors.ts";

export interface NamespaceRoute {
  readonly label: string;
  readonly node: string;
  readonly owner: string;
  readonly registrar: string;
  readonly resolver: string | null;
}

/** The namespace's current registrar and resolver as indexed; 404 namespace_not_found when none. */
export async function namespaceRoute(db: Database, namespace: string): Promise<NamespaceRoute> {
  const rows = await db.replica
    .select({
      label: namespaces.label,
      node: namespaces.node,
      owner: namespaces.owner,
      registrar: namespaces.registrar,
      resolver: namespaces.resolver,
    })
    .from(namespaces)
    .where(eq(namespaces.label, namespace))
    .limit(1);
  const row = rows[0];
  if (row === undefined) throw new ApiError("namespace_not_found", { namespace });
  return row;
}
