// For tests: a wallet's side of SEP-10 over app.inject, built from the public SDK only, as a real wallet would.
import { type Keypair, TransactionBuilder } from "@stellar/stellar-sdk";
import type { App } from "../api/app.ts";

export interface Challenge {
  readonly transaction: string;
  readonly network_passphrase: string;
}

export async function requestChallenge(app: App, account: string): Promise<Challenge> {
  const response = await app.inject({ url: `/auth?account=${account}` });
  if (response.statusCode !== 200)
    throw new Error(`GET /auth answered ${response.statusCode}: ${response.body}`);
  return response.json();
}

/** The challenge with `signers`' signatures added; `networkPassphrase` defaults to the one the server named. */
export function signChallenge(
  challenge: Challenge,
  signers: readonly Keypair[],
  networkPassphrase?: string,
): string {
  const tx = TransactionBuilder.fromXDR(
    challenge.transaction,
    networkPassphrase ?? challenge.network_passphrase,
  );
  for (const signer of signers) tx.sign(signer);
  return tx.toXDR();
}

export function redeem(app: App, transaction: string) {
  return app.inject({ method: "POST", url: "/auth", payload: { transaction } });
}

/** Signs in as `wallet` and returns the session token. */
export async function signIn(app: App, wallet: Keypair): Promise<string> {
  const response = await redeem(
    app,
    signChallenge(await requestChallenge(app, wallet.publicKey()), [wallet]),
  );
  if (response.statusCode !== 200)
    throw new Error(`POST /auth answered ${response.statusCode}: ${response.body}`);
  return (response.json() as { token: string }).token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
