// Server-side sessions (table `sessions`): a token names a row, and the row says whether the session still holds
// (not revoked, not expired) and which namespace it is scoped to. Reads go to the writer: a revocation must take
// effect at once, which a lagging read replica would not guarantee.
import { randomUUID } from "node:crypto";
import { and, eq, isNull, lt } from "drizzle-orm";
import { sessions } from "../db/tables.ts";
import type { Database } from "../db/types.ts";
import { sessionKeys } from "./keys.ts";
import { signSessionToken } from "./tokens.ts";

export type SessionKind = "wallet" | "operator";

export interface Session {
  readonly id: string;
  readonly kind: SessionKind;
  /** The wallet account (G…); null for an operator session. */
  readonly account: string | null;
  /** The namespace the session is scoped to; null until the first namespace-scoped request binds it. */
  readonly namespace: string | null;
  readonly expiresAt: Date;
}

/** A day: long enough for a console visit, short enough that a leaked token does not live on. */
export const SESSION_TTL_SECONDS = 24 * 60 * 60;

/** The subject of an operator session's token, which has no account. */
export const OPERATOR_SUBJECT = "operator";

/** What issuing a token needs from the configuration. */
export interface SessionIssuer {
  readonly session: { readonly secret: string };
  readonly homeDomain: string;
}

export interface OpenedSession {
  readonly session: Session;
  readonly token: string;
}

export interface OpenSessionOptions {
  readonly kind: SessionKind;
  readonly account: string | null;
  readonly now: Date;
  readonly ttlSeconds?: number;
  readonly namespace?: string | null;
}

export async function openSession(
  db: Database,
  issuer: SessionIssuer,
  options: OpenSessionOptions,
): Promise<OpenedSession> {
  const expiresAt = new Date(options.now.getTime() + (options.ttlSeconds ?? SESSION_TTL_SECONDS) * 1000);
  const session: Session = {
    id: randomUUID(),
    kind: options.kind,
    account: options.account,
    namespace: options.namespace ?? null,
    expiresAt,
  };
  // Expired sessions can never authenticate again; dropping them here keeps the table to live sessions.
  await db.db.delete(sessions).where(lt(sessions.expiresAt, options.now));
  await db.db.insert(sessions).values({ ...session, createdAt: options.now });
  const token = await signSessionToken(sessionKeys(issuer.session.secret).tokenKey, {
    issuer: issuer.homeDomain,
    subject: session.account ?? OPERATOR_SUBJECT,
    sessionId: session.id,
    issuedAt: options.now,
    expiresAt,
  });
  return { session, token };
}

/**
 * A session without a wallet, for the operator CLI and tests. It authenticates on console routes but cannot
 * prepare owner transactions (400 `wallet_session_required`).
 */
export function createOperatorSession(
  db: Database,
  issuer: SessionIssuer,
  options: { readonly now?: Date; readonly ttlSeconds?: number; readonly namespace?: string | null } = {},
): Promise<OpenedSession> {
  return openSession(db, issuer, {
    ...options,
    kind: "operator",
    account: null,
    now: options.now ?? new Date(),
  });
}

/** The session if it exists, is not revoked and has not expired at `now`; otherwise null. */
export async function loadLiveSession(db: Database, id: string, now: Date): Promise<Session | null> {
  const [row] = await db.db.select().from(sessions).where(eq(sessions.id, id)).limit(1);
  if (row === undefined || row.revokedAt !== null || row.expiresAt.getTime() <= now.getTime()) return null;
  if (row.kind !== "wallet" && row.kind !== "operator") return null;
  return {
    id: row.id,
    kind: row.kind,
    account: row.account,
    namespace: row.namespace,
    expiresAt: row.expiresAt,
  };
}

/** Revokes the session; true when this call revoked it (false: already revoked or unknown). */
export async function revokeSession(db: Database, id: string, now: Date): Promise<boolean> {
  const revoked = await db.db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return revoked.length > 0;
}

/**
 * Scopes a session to `namespace` if it has none yet and returns the namespace it is scoped to afterwards. The
 * conditional update makes two concurrent first requests for different namespaces bind exactly one of them.
 */
export async function bindNamespace(db: Database, id: string, namespace: string): Promise<string | null> {
  const bound = await db.db
    .update(sessions)
    .set({ namespace })
    .where(and(eq(sessions.id, id), isNull(sessions.namespace)))
    .returning({ namespace: sessions.namespace });
  if (bound.length > 0) return namespace;
  const [row] = await db.db
    .select({ namespace: sessions.namespace })
    .from(sessions)
    .where(eq(sessions.id, id))
    .limit(1);
  return row?.namespace ?? null;
}
