// SEP-10 challenges (docs/sessions.md "Design"): the server signs a challenge for an account, the wallet signs it
// back, and a verified challenge is consumed exactly once. Verification is the SDK's WebAuth (server signature,
// client signature over the hash for this network's passphrase, time bounds, home and web-auth domain); on top of
// it the challenge must be one this server issued and recorded (table `auth_challenges`), unused, and unexpired by
// the injected clock.

import { FeeBumpTransaction, type Transaction, TransactionBuilder, WebAuth } from "@stellar/stellar-sdk";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { authChallenges } from "../db/tables.ts";
import type { Database } from "../db/types.ts";
import { ApiError } from "../errors.ts";
import type { SessionKeys } from "./keys.ts";

/** SEP-10's usual window: time to open a wallet and approve, short enough that a leaked challenge goes stale. */
export const CHALLENGE_TIMEOUT_SECONDS = 900;

export interface ChallengeContext {
  readonly db: Database;
  readonly keys: SessionKeys;
  /** The home domain of the `"<home domain> auth"` operation; the web-auth domain is the same host. */
  readonly homeDomain: string;
  readonly networkPassphrase: string;
  readonly now: Date;
}

/** Builds, signs and records a challenge for `account`; returns its base64 XDR. */
export async function issueChallenge(ctx: ChallengeContext, account: string): Promise<string> {
  const transaction = WebAuth.buildChallengeTx(
    ctx.keys.challengeSigner,
    account,
    ctx.homeDomain,
    CHALLENGE_TIMEOUT_SECONDS,
    ctx.networkPassphrase,
    ctx.homeDomain,
  );
  const id = hashOf(TransactionBuilder.fromXDR(transaction, ctx.networkPassphrase));
  const expiresAt = new Date(ctx.now.getTime() + CHALLENGE_TIMEOUT_SECONDS * 1000);
  // Expired challenges are worthless (used or not), so each new one clears them out and the table stays small.
  await ctx.db.db.delete(authChallenges).where(lt(authChallenges.expiresAt, ctx.now));
  await ctx.db.db.insert(authChallenges).values({ id, account, createdAt: ctx.now, expiresAt });
  return transaction;
}

/** Verifies a challenge signed by its client and consumes it; returns the authenticated account. */
export async function redeemChallenge(ctx: ChallengeContext, transaction: string): Promise<string> {
  let id: string;
  try {
    const envelope = TransactionBuilder.fromXDR(transaction, ctx.networkPassphrase);
    if (envelope instanceof FeeBumpTransaction) throw new Error("fee bump");
    id = hashOf(envelope);
  } catch {
    throw new ApiError("invalid_request", {
      detail: "transaction: must be a challenge transaction envelope in base64 XDR",
    });
  }

  const server = ctx.keys.challengeSigner.publicKey();
  let account: string;
  try {
    ({ clientAccountID: account } = WebAuth.readChallengeTx(
      transaction,
      server,
      ctx.networkPassphrase,
      ctx.homeDomain,
      ctx.homeDomain,
    ));
    // Only the account's master key is accepted: the session speaks for that key, and the owner checks later
    // compare that very account with the chain.
    WebAuth.verifyChallengeTxSigners(
      transaction,
      server,
      ctx.networkPassphrase,
      [account],
      ctx.homeDomain,
      ctx.homeDomain,
    );
  } catch (error) {
    if (error instanceof WebAuth.InvalidChallengeError) {
      throw new ApiError("unauthorized", { detail: `challenge: ${error.message}` });
    }
    throw error;
  }

  // One statement decides, so two concurrent redemptions of one challenge cannot both succeed.
  const consumed = await ctx.db.db
    .update(authChallenges)
    .set({ usedAt: ctx.now })
    .where(
      and(
        eq(authChallenges.id, id),
        eq(authChallenges.account, account),
        isNull(authChallenges.usedAt),
        gt(authChallenges.expiresAt, ctx.now),
      ),
    )
    .returning({ account: authChallenges.account });
  if (consumed.length === 0)
    throw new ApiError("unauthorized", { detail: await whyRefused(ctx, id, account) });
  return account;
}

async function whyRefused(ctx: ChallengeContext, id: string, account: string): Promise<string> {
  const [row] = await ctx.db.db.select().from(authChallenges).where(eq(authChallenges.id, id)).limit(1);
  if (row === undefined) return "challenge: was not issued by this server or has expired; request a new one";
  if (row.account !== account) return "challenge: was issued for another account";
  if (row.usedAt !== null) return "challenge: has already been used; request a new one";
  return "challenge: has expired; request a new one";
}

/** The transaction hash (hex) for this network: signatures are not part of it, so signing leaves it unchanged. */
function hashOf(tx: Transaction | FeeBumpTransaction): string {
  return Buffer.from(tx.hash()).toString("hex");
}
