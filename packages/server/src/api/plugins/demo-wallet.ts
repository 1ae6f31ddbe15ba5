// The web app's "Demo wallet" (`namereg dev` only): `GET /dev/demo-wallet` hands the page the demo accounts' keys,
// which `namereg dev` already prints (development keys, public by design), so the page can sign as any of them
// without a wallet extension. Only an app built with `demoWallet` (runtime/commands/dev.ts passes it) registers the
// route; `serve` and `start` answer it 404 like any unknown path, and their page does not offer the option
// (plugins/web.ts marks index.html for the dev app only). Hidden from the OpenAPI document: it is no part of the
// service's API.
import type { FastifyInstance } from "fastify";

export const DEMO_WALLET_PATH = "/dev/demo-wallet";

export interface DemoWalletAccount {
  /** The demo role (`alice`, `acme`, …). */
  readonly role: string;
  /** What the account is in the demo, in words (`holder of alice.acme`). */
  readonly note: string;
  readonly account: string;
  readonly secret: string;
}

/** What the dev command gives the app: the network the demo chain runs and the accounts a person may act as. */
export interface DemoWallet {
  readonly networkPassphrase: string;
  readonly accounts: readonly DemoWalletAccount[];
}

export function registerDemoWallet(app: FastifyInstance, wallet: DemoWallet): void {
  const body = JSON.stringify({ networkPassphrase: wallet.networkPassphrase, accounts: wallet.accounts });
  app.get(DEMO_WALLET_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.type("application/json; charset=utf-8").send(body),
  );
}
