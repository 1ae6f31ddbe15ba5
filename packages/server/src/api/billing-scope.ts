// Which namespaces the directory may show (docs/billing.md; docs/api.md "Directory"). Only the directory is scoped by subscription; forward
// resolution, discovery and federation never are, so nothing else should call this.
import { and, eq, exists, gt, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { billingEnforced } from "../billing/terms.ts";
import type { Config } from "../config/index.ts";
import { subscriptions } from "../db/tables.ts";
import type { Db } from "../db/types.ts";

export type BillingScope =
  | { readonly filtered: false }
  | {
      readonly filtered: true;
      /** A condition true when the namespace labelled by `namespaceLabel` has a currently active subscription. */
      readonly subscribed: (namespaceLabel: AnyPgColumn) => SQL;
    };

/**
 * Enforcement starts when billing is enabled and its launch grace (if any) has ended; `graceUntil` is the first
 * enforced instant. While not enforced every namespace is listed and `filtered` is false.
 */
export function billingScope(reader: Db, billing: Config["billing"], now: Date): BillingScope {
  if (!billingEnforced(billing, now)) return { filtered: false };
  return {
    filtered: true,
    // A correlated EXISTS rather than a join: a namespace has at most one subscription row, and the caller keeps
    // its own select list, order and limit.
    subscribed: (namespaceLabel) =>
      exists(
        reader
          .select({ one: subscriptions.namespace })
          .from(subscriptions)
          .where(
            and(
              eq(subscriptions.namespace, namespaceLabel),
              // Same rule as billing/terms.ts subscriptionState: not suspended and paid through now.
              eq(subscriptions.status, "active"),
              gt(subscriptions.activeUntil, now),
            ),
          ),
      ),
  };
}
