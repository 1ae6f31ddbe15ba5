// The database reads and writes of the console routes (billing.ts, profile.ts).
import { desc, eq, or } from "drizzle-orm";
import { billingPayments, namespaceProfiles, subscriptions } from "../../../db/tables.ts";
import type { Db } from "../../../db/types.ts";

/** The namespace's subscription row, if it ever paid. */
export async function subscriptionOf(db: Db, namespace: string) {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.namespace, namespace));
  return row;
}

/** The `limit` newest payments credited to the namespace or carrying its memo. */
export function recentPayments(db: Db, namespace: string, memo: string, limit: number) {
  return db
    .select()
    .from(billingPayments)
    .where(or(eq(billingPayments.namespace, namespace), eq(billingPayments.memo, memo)))
    .orderBy(desc(billingPayments.toid), desc(billingPayments.operationIndex))
    .limit(limit);
}

/** Writes the namespace's display name and logo, replacing any earlier profile. */
export async function saveProfile(
  db: Db,
  profile: { label: string; displayName: string | null; logo: string | null; updatedAt: Date },
): Promise<void> {
  const { displayName, logo, updatedAt } = profile;
  await db
    .insert(namespaceProfiles)
    .values(profile)
    .onConflictDoUpdate({ target: namespaceProfiles.label, set: { displayName, logo, updatedAt } });
}
