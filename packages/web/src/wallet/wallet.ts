// What the page signs with: a wallet the person connected (a browser wallet through the Stellar Wallets Kit,
// kit.ts, or the Demo wallet of `namereg dev`, demo-signer.ts), in the shape @namereg/client's helpers take
// (`SignWith`: the account, its network and a signer callback). The secret key never leaves the wallet: the page
// hands it an envelope and gets the signed envelope back. Types only, so any module may import them.
//
// Use: `const wallet = await walletOf(session)` (session.ts) gives a ConnectedWallet; pass it to `signIn`,
// `verifyPrepared` (its `account` and `networkPassphrase`) and the action flow (actions/).
import type { SignWith } from "@namereg/client";

/** Which wallet a session signs with: one of the kit's (by its id) or a Demo wallet account (by its role). */
export type WalletChoice =
  | { readonly kind: "kit"; readonly id: string; readonly name: string }
  | { readonly kind: "demo"; readonly role: string };

export interface ConnectedWallet extends SignWith {
  readonly choice: WalletChoice;
  /** How the page names the wallet to the person: "Freighter", "Demo wallet (alice)". */
  readonly name: string;
}

/** A wallet refused or failed to sign or to give its account; `message` is the wallet's own words. */
export class WalletError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WalletError";
  }
}

export function walletName(choice: WalletChoice): string {
  return choice.kind === "kit" ? choice.name : `Demo wallet (${choice.role})`;
}
