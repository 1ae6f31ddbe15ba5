// Connecting a wallet and signing in with it (SEP-10, docs/sessions.md): the code session.ts loads with
// `await import("./connect.ts")` when someone signs in or first signs after a reload, so the SDK, the client's
// signing helpers and the wallet kit stay out of the read pages.
import { signIn } from "@namereg/client";
import { api, unwrap } from "../api.ts";
import { demoAccounts } from "./demo.ts";
import { demoWallet } from "./demo-signer.ts";
import { connectKitWallet, listKitWallets, reconnectKitWallet } from "./kit.ts";
import { type ConnectedWallet, type WalletChoice, WalletError } from "./wallet.ts";

export { demoAccounts, listKitWallets };

/** What a person picked in the sign-in dialog: a kit wallet by id, or a demo account by role. */
export type WalletPick =
  | { readonly kind: "kit"; readonly id: string }
  | { readonly kind: "demo"; readonly role: string };

/** The network the service's chain runs, as its SEP-10 challenge names it. */
async function serviceNetwork(account: string): Promise<string> {
  const challenge = await unwrap(api.GET("/auth", { params: { query: { account } } }));
  return challenge.network_passphrase;
}

async function demoWalletFor(role: string): Promise<ConnectedWallet> {
  const demo = await demoAccounts();
  const account = demo.accounts.find((a) => a.role === role);
  if (account === undefined) throw new WalletError(`the Demo wallet has no account "${role}"`);
  return demoWallet(account, demo.networkPassphrase);
}

/** Asks the picked wallet for its account (a browser wallet asks the person first). */
export function connect(pick: WalletPick): Promise<ConnectedWallet> {
  return pick.kind === "demo" ? demoWalletFor(pick.role) : connectKitWallet(pick.id, serviceNetwork);
}

/** Signs in as the wallet's account: the client checks the challenge, the wallet signs it; the session token. */
export function signInWith(wallet: ConnectedWallet): Promise<string> {
  return signIn(api, wallet);
}

/** The wallet of a session recorded before a reload, without asking the person for the account again. */
export async function reconnect(
  choice: WalletChoice,
  account: string,
  networkPassphrase: string,
): Promise<ConnectedWallet> {
  if (choice.kind === "kit") return reconnectKitWallet(choice.id, account, networkPassphrase);
  const wallet = await demoWalletFor(choice.role);
  if (wallet.account !== account) throw new WalletError(`the demo account ${choice.role} has changed`);
  return wallet;
}
