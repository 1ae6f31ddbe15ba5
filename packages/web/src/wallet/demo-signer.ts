// The Demo wallet's signer: a Stellar SDK Keypair in the page signing with the chosen demo account's key (only
// ever under `namereg dev`, whose keys are public by design; see demo.ts). Loaded with `await import(…)`, so the
// SDK reaches the browser only when someone signs.
import { Keypair, TransactionBuilder } from "@stellar/stellar-sdk";
import type { DemoAccount } from "./demo.ts";
import { type ConnectedWallet, WalletError } from "./wallet.ts";

export function demoWallet(demo: DemoAccount, networkPassphrase: string): ConnectedWallet {
  const key = Keypair.fromSecret(demo.secret);
  if (key.publicKey() !== demo.account)
    throw new WalletError(`the demo key of ${demo.role} is not its account`);
  return {
    choice: { kind: "demo", role: demo.role },
    name: `Demo wallet (${demo.role})`,
    account: demo.account,
    networkPassphrase,
    signer: async (xdr, context) => {
      const tx = TransactionBuilder.fromXDR(xdr, context.networkPassphrase);
      tx.sign(key);
      return tx.toXDR();
    },
  };
}
