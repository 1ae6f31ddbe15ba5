// Which namespaces the directory may show (spec §1, §4.2). Only the directory is scoped by subscription; forward
// resolution, discovery and federation never are, so nothing else should call this.
import { and, eq, exists, gt, isNull, or, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
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
  const enforced =
    billing.enabled && (billing.graceUntil === null || now.getTime() >= Date.parse(billing.graceUntil));
  if (!enforced) return { filtered: false };
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
              eq(subscriptions.status, "active"),
              or(isNull(subscriptions.activeUntil), gt(subscriptions.activeUntil, now)),
            ),
          ),
      ),
  };
}
