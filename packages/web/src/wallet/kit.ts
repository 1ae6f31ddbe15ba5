// Browser wallets through the Stellar Wallets Kit (@creit.tech/stellar-wallets-kit): Freighter, xBull, Albedo,
// LOBSTR, Rabet, Hana and the others its `defaultModules()` holds (those that need no configuration of ours; not
// WalletConnect, which needs a project id, nor the hardware wallets, which need extra transports). Only the kit's
// wallet modules are used, each through its own `getAddress`/`getNetwork`/`signTransaction`: the page draws its own
// accessible picker (sign-in.tsx) instead of the kit's modal, so the kit's styling runtime never loads, and no
// module's icon is shown (they are images on the kit's site: the page fetches nothing from another origin).
//
// Load it with `await import("./kit.ts")` (session.ts does): it is a chunk of its own, fetched when someone opens
// the sign-in dialog, never by the read pages.

import { defaultModules } from "@creit.tech/stellar-wallets-kit/modules/utils";
import type { ModuleInterface } from "@creit.tech/stellar-wallets-kit/types";
import { type ConnectedWallet, WalletError } from "./wallet.ts";

export interface KitWallet {
  readonly id: string;
  readonly name: string;
  /** Where to get the wallet (the wallet's own site), for one that is not installed. */
  readonly url: string;
  /** Installed in this browser (or, for a web wallet such as Albedo, always usable). */
  readonly available: boolean;
}

let modules: readonly ModuleInterface[] | null = null;
const all = () => {
  modules ??= defaultModules();
  return modules;
};

function moduleOf(id: string): ModuleInterface {
  const found = all().find((m) => m.productId === id);
  if (found === undefined) throw new WalletError(`there is no wallet "${id}" in this page`);
  return found;
}

/** The kit's wallets, each asked whether it is available (the kit gives them a second to answer). */
export async function listKitWallets(): Promise<readonly KitWallet[]> {
  return Promise.all(
    all().map(async (m) => ({
      id: m.productId,
      name: m.productName,
      url: m.productUrl,
      available: await Promise.race([
        m.isAvailable().catch(() => false),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1000)),
      ]),
    })),
  );
}

/** The kit's failures are plain objects `{ code, message }`; the page shows the wallet's message. */
function walletError(cause: unknown): WalletError {
  const message =
    cause !== null &&
    typeof cause === "object" &&
    typeof (cause as { message?: unknown }).message === "string"
      ? (cause as { message: string }).message
      : String(cause);
  return new WalletError(message, { cause });
}

/**
 * Asks the wallet for its account (the wallet asks the person for permission) and its network; a wallet that does
 * not tell its network (Albedo, Hana) signs for the service's, `serviceNetwork(account)`.
 */
export async function connectKitWallet(
  id: string,
  serviceNetwork: (account: string) => Promise<string>,
): Promise<ConnectedWallet> {
  const module = moduleOf(id);
  let account: string;
  try {
    ({ address: account } = await module.getAddress());
  } catch (cause) {
    throw walletError(cause);
  }
  const told = await module.getNetwork().then(
    (n) => n.networkPassphrase,
    () => null,
  );
  return kitWallet(module, account, told ?? (await serviceNetwork(account)));
}

/** The wallet of a session already signed in (after a reload): the account and network the session recorded. */
export function reconnectKitWallet(id: string, account: string, networkPassphrase: string): ConnectedWallet {
  return kitWallet(moduleOf(id), account, networkPassphrase);
}

function kitWallet(module: ModuleInterface, account: string, networkPassphrase: string): ConnectedWallet {
  return {
    choice: { kind: "kit", id: module.productId, name: module.productName },
    name: module.productName,
    account,
    networkPassphrase,
    signer: async (xdr, context) => {
      try {
        const { signedTxXdr } = await module.signTransaction(xdr, {
          networkPassphrase: context.networkPassphrase,
          address: account,
        });
        return signedTxXdr;
      } catch (cause) {
        throw walletError(cause);
      }
    },
  };
}
