// Wallet sign-in (SEP-10 challenges) and server-side sessions.
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { tz } from "./columns.ts";

/** Single-use SEP-10 challenges: a challenge is accepted once, before it expires. */
export const authChallenges = pgTable("auth_challenges", {
  /** Hash of the challenge transaction (hex). */
  id: text("id").primaryKey(),
  account: text("account").notNull(),
  createdAt: tz("created_at").notNull().defaultNow(),
  expiresAt: tz("expires_at").notNull(),
  usedAt: tz("used_at"),
});

/**
 * Server-side sessions, so a token can be revoked before it expires. A wallet session has an account; an operator
 * session (created by the CLI) has none. `namespace` is the namespace the session is scoped to, once selected.
 */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    account: text("account"),
    namespace: text("namespace"),
    createdAt: tz("created_at").notNull().defaultNow(),
    expiresAt: tz("expires_at").notNull(),
    revokedAt: tz("revoked_at"),
  },
  (t) => [index("sessions_account_idx").on(t.account)],
);
