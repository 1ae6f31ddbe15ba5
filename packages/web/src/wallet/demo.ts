// The Demo wallet of `namereg dev`: the demo accounts' keys (printed by `namereg dev`, public by design), so the
// whole console can be tried without a wallet extension. Offered only when the page's index.html names it (the
// server adds the tag under `namereg dev` alone: packages/server/src/api/plugins/web.ts), so `serve` and `start`
// neither offer it nor ask for it. The keys arrive only when someone opens the sign-in dialog; signing is
// demo-signer.ts, loaded with the SDK when an account is chosen.
//
// Use: `demoWalletOffered()` before showing the option; `await demoAccounts()` for the list to choose from.

/** The tag's name (packages/server/src/api/plugins/web.ts writes it as DEMO_WALLET_META). */
const META = "namereg-demo-wallet";

export interface DemoAccount {
  readonly role: string;
  /** What the account is in the demo, in words ("holder of alice.acme"). */
  readonly note: string;
  readonly account: string;
  readonly secret: string;
}

export interface DemoAccounts {
  readonly networkPassphrase: string;
  readonly accounts: readonly DemoAccount[];
}

/** The Demo wallet's address when this page offers it (under `namereg dev`), else null. */
export function demoWalletPath(): string | null {
  return document.querySelector(`meta[name="${META}"]`)?.getAttribute("content") ?? null;
}

export const demoWalletOffered = (): boolean => demoWalletPath() !== null;

let loaded: Promise<DemoAccounts> | null = null;

/**
 * The demo accounts. A plain fetch, not @namereg/client: the route is `namereg dev`'s alone, not part of the API
 * the client is generated from (docs/api.md marks it dev-only).
 */
export function demoAccounts(): Promise<DemoAccounts> {
  const path = demoWalletPath();
  if (path === null) return Promise.reject(new Error("this service offers no Demo wallet"));
  loaded ??= fetch(path).then(async (response) => {
    if (!response.ok) throw new Error(`the Demo wallet answered ${response.status}`);
    return (await response.json()) as DemoAccounts;
  });
  // A failure is not kept: the next try asks again.
  loaded.catch(() => {
    loaded = null;
  });
  return loaded;
}
