// SEP-10 sign-in for the owner console (docs/sessions.md): GET /auth for a challenge, sign it, POST /auth for the
// session token. The challenge is a transaction the service asks the wallet to sign, so it is checked first as any
// SEP-10 wallet checks one (the SDK's WebAuth.readChallengeTx: sequence 0, so it can never be submitted; only
// Manage Data operations; the wallet's account as the first one's source; a time window), and for the wallet's
// own account and network: a signature on it proves the key and can do nothing else.
import { FeeBumpTransaction, type Transaction, TransactionBuilder, WebAuth } from "@stellar/stellar-sdk";
import { type NameregApi, unwrap } from "./api.ts";
import type { SignWith } from "./transactions.ts";
import { PreparedTransactionRejected } from "./verify-prepared.ts";

export interface SignInOptions {
  /**
   * The service's SEP-10 signing key (`SIGNING_KEY` in its stellar.toml) from the wallet's own configuration.
   * Default: the challenge's source, which the structural checks still hold to a harmless challenge.
   */
  readonly serverSigningKey?: string;
  /** The home domain the challenge must be for (the service's HOME_DOMAIN). Default: the one the challenge names. */
  readonly homeDomain?: string;
}

function refuse(detail: string): never {
  throw new PreparedTransactionRejected("invalid_challenge", detail);
}

/**
 * Signs in as `wallet.account` and returns the session token for consoleChange's `{ token, namespace }`. Throws
 * PreparedTransactionRejected (reason `invalid_challenge`) for a challenge that is not a harmless SEP-10 challenge
 * for this account and network, and NameregError for the API's refusals (e.g. 401 `unauthorized`).
 */
export async function signIn(
  api: NameregApi,
  wallet: SignWith,
  options: SignInOptions = {},
): Promise<string> {
  const challenge = await unwrap(api.GET("/auth", { params: { query: { account: wallet.account } } }));
  if (challenge.network_passphrase !== wallet.networkPassphrase) {
    refuse(
      `a challenge for "${challenge.network_passphrase}", the wallet signs for "${wallet.networkPassphrase}"`,
    );
  }
  let decoded: Transaction | FeeBumpTransaction;
  try {
    decoded = TransactionBuilder.fromXDR(challenge.transaction, wallet.networkPassphrase);
  } catch (cause) {
    refuse(`not a transaction envelope: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  if (decoded instanceof FeeBumpTransaction) refuse("a fee bump is never a challenge");
  // The first operation's key is "<home domain> auth"; another op may name the web-auth domain.
  const first = decoded.operations[0];
  const named = first?.type === "manageData" ? first.name.replace(/ auth$/, "") : "";
  const webAuth = decoded.operations.find((op) => op.type === "manageData" && op.name === "web_auth_domain");
  const webAuthDomain =
    webAuth?.type === "manageData" && webAuth.value !== undefined
      ? new TextDecoder().decode(webAuth.value)
      : "";
  let clientAccountID: string;
  try {
    ({ clientAccountID } = WebAuth.readChallengeTx(
      challenge.transaction,
      options.serverSigningKey ?? decoded.source,
      wallet.networkPassphrase,
      options.homeDomain ?? named,
      webAuthDomain,
    ));
  } catch (cause) {
    refuse(`not a SEP-10 challenge: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  if (clientAccountID !== wallet.account) refuse(`a challenge for ${clientAccountID}, not ${wallet.account}`);
  const transaction = await wallet.signer(challenge.transaction, {
    networkPassphrase: wallet.networkPassphrase,
  });
  const { token } = await unwrap(api.POST("/auth", { body: { transaction } }));
  return token;
}
