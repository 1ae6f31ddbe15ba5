// For tests: the marketplace on a demo devnet, through the public routes and real signed transactions. Each
// seller gets a fresh namespace reserved by the devnet's admin, so tests do not share listings.
import { randomBytes } from "node:crypto";
import { demoKeypair, type NamingDevnet, startNamingDevnet, Wallet } from "@namereg/devnet";
import { AllocatorFns, namespaceNode, RegistryFns, stroopsToXlm, xlmToStroops } from "@namereg/protocol";
import { Asset, Keypair, Memo, Operation, rpc } from "@stellar/stellar-sdk";
import { type App, buildApp } from "../../api/app.ts";
import { bearer, signIn } from "../../auth/testing.ts";
import { ContractReader } from "../../chain/contract-reader.ts";
import type { Config } from "../../config/index.ts";
import { testConfig } from "../../config/testing.ts";
import { marketPayouts } from "../../db/tables.ts";
import { createTestDatabase, type TestDatabase } from "../../db/testing.ts";
import type { DatabaseKind } from "../../db/url.ts";
import type { Indexer } from "../../indexer/indexer.ts";
import { indexerFor, runUntilIdle } from "../../indexer/testing.ts";
import { EscrowWatcher, type EscrowWatcherOptions } from "./watcher.ts";

export interface MarketHarness {
  readonly devnet: NamingDevnet;
  readonly database: TestDatabase;
  readonly config: Config;
  readonly app: App;
  readonly indexer: Indexer;
  readonly escrow: Keypair;
  readonly wallet: Wallet;
  readonly server: rpc.Server;
  /** The API's clock (intent expiry); advance it with `clock.offsetMs`. */
  readonly clock: { offsetMs: number };
  watcher(extra?: Partial<EscrowWatcherOptions>): EscrowWatcher;
  /** Indexes everything, then runs watcher passes until one changes nothing. */
  sync(): Promise<void>;
  funded(): Promise<Keypair>;
  balance(account: string): Promise<bigint>;
  /** A fresh namespace owned by `seller`. */
  namespaceFor(seller: Keypair): Promise<string>;
  /** Lists `namespace` at `priceXlm` via the console and posts the bond; returns the listing id. */
  list(seller: Keypair, namespace: string, priceXlm: string): Promise<string>;
  intent(listingId: string, buyer: string): Promise<{ status: number; body: IntentBody }>;
  pay(from: Keypair, amountXlm: string, memoHex: string | null): Promise<{ hash: string; ledger: number }>;
  propose(seller: Keypair, namespace: string, to: string, lifetimeSeconds?: number): Promise<bigint>;
  accept(buyer: Keypair, namespace: string): Promise<void>;
  cancelProposal(seller: Keypair, namespace: string): Promise<void>;
  /** Closes a ledger at `closeTime` (unix seconds). */
  closeLedgerAt(closeTime: bigint): void;
  latestCloseTime(): bigint;
  payouts(): Promise<(typeof marketPayouts.$inferSelect)[]>;
  close(): Promise<void>;
}

export interface IntentBody {
  readonly error?: string;
  readonly intent: { id: string; expiresAt: string };
  readonly pay: { to: string; amountXlm: string; memoHash: string; asset: string; memoType: string };
  readonly settlement: { node: string; seller: string; steps: string[] };
}

export const TEST_FEE_BPS = 250;

export async function startMarketHarness(
  kind: DatabaseKind,
  opts: { marketEnabled?: boolean; intentPerMinute?: number } = {},
): Promise<MarketHarness> {
  const devnet = await startNamingDevnet({ scenario: "demo", closeIntervalMs: 0 });
  const database = await createTestDatabase(kind);
  const server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
  const wallet = new Wallet({
    rpcUrl: devnet.rpcUrl,
    networkPassphrase: devnet.networkPassphrase,
    settle: async () => void devnet.closeLedger(),
  });
  const friendbot = async (account: string) => {
    const response = await fetch(`${devnet.rpcUrl}/friendbot?addr=${account}`);
    if (response.status !== 200) throw new Error(`friendbot answered ${response.status}`);
  };
  const escrow = Keypair.random();
  await friendbot(escrow.publicKey());
  const startLedger = devnet.chain.latest.sequence;
  const config = testConfig({
    RPC_URL: devnet.rpcUrl,
    NETWORK_PASSPHRASE: devnet.networkPassphrase,
    REGISTRY_ID: devnet.contracts.registry,
    MARKET_ENABLED: String(opts.marketEnabled ?? true),
    ESCROW_ACCOUNT: escrow.publicKey(),
    ESCROW_SECRET: escrow.secret(),
    MARKET_FEE_BPS: String(TEST_FEE_BPS),
    INTENT_RATE_LIMIT_PER_MINUTE: String(opts.intentPerMinute ?? 1000),
    RATE_LIMIT_PER_MINUTE: "100000",
  });
  const clock = { offsetMs: 0 };
  const app = await buildApp({
    config,
    db: database,
    redis: null,
    reader: new ContractReader(devnet.rpcUrl, devnet.networkPassphrase),
    now: () => new Date(Date.now() + clock.offsetMs),
  });
  const indexer = indexerFor(devnet, database.db);
  await indexer.init();
  await runUntilIdle(indexer);

  const watcher = (extra: Partial<EscrowWatcherOptions> = {}) =>
    new EscrowWatcher({
      db: database.db,
      server,
      networkPassphrase: devnet.networkPassphrase,
      escrow,
      registryId: devnet.contracts.registry,
      startLedger,
      settle: async () => void devnet.closeLedger(),
      attempts: 5,
      ...extra,
    });
  const main = watcher();
  const admin = demoKeypair("admin");
  const tokens = new Map<string, string>();

  const harness: MarketHarness = {
    devnet,
    database,
    config,
    app,
    indexer,
    escrow,
    wallet,
    server,
    clock,
    watcher,
    async sync() {
      for (let pass = 0; pass < 10; pass++) {
        await runUntilIdle(indexer);
        const result = await main.runOnce();
        if (result.payments === 0 && result.decided === 0 && result.paidOrParked === 0) return;
      }
      throw new Error("the escrow watcher kept finding work after 10 passes");
    },
    async funded() {
      const kp = Keypair.random();
      await friendbot(kp.publicKey());
      return kp;
    },
    async balance(account) {
      const entry = (await server.getAccountEntry(account)) as unknown as { balance: { toString(): string } };
      return BigInt(entry.balance.toString());
    },
    async namespaceFor(seller) {
      const label = `m${randomBytes(5).toString("hex")}`;
      await wallet.invoke(admin, devnet.contracts.allocator, AllocatorFns.reserve, {
        label,
        owner: seller.publicKey(),
      });
      return label;
    },
    async list(seller, namespace, priceXlm) {
      let token = tokens.get(`${seller.publicKey()}:${namespace}`);
      if (token === undefined) {
        token = await signIn(app, seller);
        tokens.set(`${seller.publicKey()}:${namespace}`, token);
      }
      await runUntilIdle(indexer);
      const created = await app.inject({
        method: "POST",
        url: "/console/market/listings",
        headers: { ...bearer(token), "x-service-namespace": namespace },
        payload: { namespace, priceXlm },
      });
      if (created.statusCode !== 201)
        throw new Error(`listing answered ${created.statusCode}: ${created.body}`);
      const body = created.json() as {
        listing: { id: string };
        bond: { amountXlm: string; memoHash: string };
      };
      await harness.pay(seller, body.bond.amountXlm, body.bond.memoHash);
      await harness.sync();
      return body.listing.id;
    },
    async intent(listingId, buyer) {
      const response = await app.inject({
        method: "POST",
        url: `/v1/market/listings/${listingId}/intent`,
        payload: { account: buyer },
      });
      return { status: response.statusCode, body: response.json() };
    },
    async pay(from, amountXlm, memoHex) {
      const op = Operation.payment({
        destination: escrow.publicKey(),
        asset: Asset.native(),
        amount: amountXlm,
      });
      const sent = await wallet.classic(from, op, memoHex === null ? undefined : Memo.hash(memoHex));
      return { hash: sent.hash, ledger: sent.ledger };
    },
    async propose(seller, namespace, to, lifetimeSeconds = 3600) {
      const expires = harness.latestCloseTime() + BigInt(lifetimeSeconds);
      await wallet.invoke(seller, devnet.contracts.registry, RegistryFns.propose_transfer, {
        node: namespaceNode(namespace),
        to,
        expires,
      });
      return expires;
    },
    async accept(buyer, namespace) {
      await wallet.invoke(buyer, devnet.contracts.registry, RegistryFns.accept_transfer, {
        node: namespaceNode(namespace),
      });
    },
    async cancelProposal(seller, namespace) {
      await wallet.invoke(seller, devnet.contracts.registry, RegistryFns.cancel_transfer, {
        node: namespaceNode(namespace),
      });
    },
    closeLedgerAt(closeTime) {
      devnet.closeLedger({ closeTime });
    },
    latestCloseTime() {
      return BigInt(devnet.chain.latest.closeTime);
    },
    async payouts() {
      return database.db.select().from(marketPayouts);
    },
    async close() {
      await app.close();
      await devnet.stop();
      await database.close();
    },
  };
  return harness;
}

export const xlm = (amount: string) => xlmToStroops(amount);
export const showXlm = stroopsToXlm;

/** Obligations of one payment, by purpose. */
export async function payoutsOf(h: MarketHarness, paymentHash: string) {
  const rows = await h.database.db.select().from(marketPayouts);
  return rows.filter((r) => r.paymentId.startsWith(`${paymentHash}:`));
}
