// Seeded market flows against an escrow watcher that runs as its own process (`namereg escrow watch`) and is
// SIGKILLed at random moments, then restarted. Afterwards every deposit must have ended paid, refunded or parked
// exactly once: each account's balance on chain is exactly what its flow should leave (its own network fees
// accounted for transaction by transaction), every transaction the escrow key signed on chain is the one
// envelope of one paid obligation, and `reconcile` holds to the stroop. Used by the short seeded test in
// `npm test` and by bench/escrow-crash (100 flows).
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { demoKeypair, startNamingDevnet, Wallet } from "@namereg/devnet";
import {
  AllocatorFns,
  applyBps,
  namespaceNode,
  RegistryFns,
  stroopsToXlm,
  xlmToStroops,
} from "@namereg/protocol";
import { Asset, Keypair, Memo, Operation, rpc, TransactionBuilder } from "@stellar/stellar-sdk";
import { eq, inArray } from "drizzle-orm";
import { type App, buildApp } from "../../api/app.ts";
import { bearer, signIn } from "../../auth/testing.ts";
import { ContractReader } from "../../chain/contract-reader.ts";
import { testConfig } from "../../config/testing.ts";
import { marketListings, marketPayments, marketPayouts, paymentCursors } from "../../db/tables.ts";
import { createTestDatabase, type TestDatabase } from "../../db/testing.ts";
import { indexerFor } from "../../indexer/testing.ts";
import { reconcile } from "./operator.ts";
import { ESCROW_CURSOR } from "./watcher.ts";

export const FLOW_KINDS = [
  "accept",
  "cancel",
  "re-aim",
  "elsewhere",
  "expiry",
  "under",
  "over",
  "early",
] as const;
export type FlowKind = (typeof FLOW_KINDS)[number];

export interface CrashRunOptions {
  readonly flows: number;
  readonly seed: number;
  readonly concurrency?: number;
  /** Kill intervals are drawn between these (ms). */
  readonly killEveryMs?: readonly [number, number];
  readonly log?: (line: string) => void;
}

export interface CrashRunFigures {
  readonly flows: number;
  readonly byKind: Record<FlowKind, number>;
  readonly kills: number;
  readonly payments: number;
  readonly payoutsPaid: number;
  readonly payoutsParked: number;
  readonly escrowTransactions: number;
  readonly obligationsPaidTwice: number;
  readonly strayEscrowTransactions: number;
  readonly balanceMismatches: string[];
  readonly reconcileOk: boolean;
  /** float − (initial escrow balance − network fees the escrow paid): 0 when the books hold to the stroop. */
  readonly floatError: bigint;
  readonly seconds: number;
}

/** mulberry32: a small seeded PRNG, so a failing seed can be replayed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CLI = fileURLToPath(new URL("../../cli.ts", import.meta.url));
const PRICE = xlmToStroops("100");
const BOND = xlmToStroops("10");
const FEE_BPS = 250;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class Mutex {
  #tail = Promise.resolve();
  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(work);
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

export async function runCrashFlows(options: CrashRunOptions): Promise<CrashRunFigures> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const random = prng(options.seed);
  const devnet = await startNamingDevnet({ scenario: "none", closeIntervalMs: 100 });
  let database: TestDatabase | undefined;
  let app: App | undefined;
  const stop = new AbortController();
  let child: ChildProcess | null = null;
  try {
    database = await createTestDatabase("postgres");
    const db = database.db;
    const server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
    const wallet = new Wallet({ rpcUrl: devnet.rpcUrl, networkPassphrase: devnet.networkPassphrase });
    const friendbot = async (account: string) => {
      const r = await fetch(`${devnet.rpcUrl}/friendbot?addr=${account}`);
      if (r.status !== 200) throw new Error(`friendbot answered ${r.status}`);
    };
    const balance = async (account: string) =>
      BigInt(
        (
          (await server.getAccountEntry(account)) as unknown as { balance: { toString(): string } }
        ).balance.toString(),
      );
    const feeOf = async (hash: string): Promise<bigint> => {
      const got = await server.getTransaction(hash);
      if (got.status === "NOT_FOUND") throw new Error(`transaction ${hash} not found`);
      return BigInt(got.resultXdr.feeCharged.toString());
    };

    const escrow = Keypair.random();
    await friendbot(escrow.publicKey());
    const escrowInitial = await balance(escrow.publicKey());
    const startLedger = devnet.chain.latest.sequence;
    const env = {
      RPC_URL: devnet.rpcUrl,
      NETWORK_PASSPHRASE: devnet.networkPassphrase,
      REGISTRY_ID: devnet.contracts.registry,
      ALLOCATOR_ID: devnet.contracts.allocator,
      MARKET_ENABLED: "true",
      ESCROW_ACCOUNT: escrow.publicKey(),
      ESCROW_SECRET: escrow.secret(),
      MARKET_FEE_BPS: String(FEE_BPS),
      ESCROW_START_LEDGER: String(startLedger),
      ESCROW_POLL_MS: "50",
    };
    const config = testConfig({
      ...env,
      RATE_LIMIT_PER_MINUTE: "1000000",
      INTENT_RATE_LIMIT_PER_MINUTE: "1000000",
    });
    app = await buildApp({
      config,
      db: database,
      redis: null,
      reader: new ContractReader(devnet.rpcUrl, devnet.networkPassphrase),
    });
    const indexer = indexerFor(devnet, db, { pollMs: 20 });
    await indexer.init();
    const indexing = indexer.run(stop.signal);

    // The watcher process, killed and restarted until the flows are done.
    let kills = 0;
    const spawnWatcher = () => {
      child = spawn(process.execPath, [CLI, "escrow", "watch"], {
        env: { ...process.env, ...env, DATABASE_URL: database?.url ?? "", LOG_LEVEL: "silent" },
        stdio: ["ignore", "ignore", "inherit"],
      });
    };
    const killWatcher = async (signal: NodeJS.Signals) => {
      const running = child;
      if (running === null || running.exitCode !== null) return;
      const exited = new Promise((r) => running.once("exit", r));
      running.kill(signal);
      await exited;
    };
    spawnWatcher();
    const [minKill, maxKill] = options.killEveryMs ?? [500, 4000];
    let flowsDone = false;
    const killer = (async () => {
      while (!flowsDone) {
        await sleep(minKill + random() * (maxKill - minKill));
        if (flowsDone) break;
        await killWatcher("SIGKILL");
        kills++;
        spawnWatcher();
      }
    })();

    const admin = demoKeypair("admin");
    await friendbot(admin.publicKey()).catch(() => undefined);
    const adminLock = new Mutex();
    const kinds: FlowKind[] = Array.from({ length: options.flows }, (_, i) =>
      i < FLOW_KINDS.length
        ? (FLOW_KINDS[i] as FlowKind)
        : (FLOW_KINDS[Math.floor(random() * FLOW_KINDS.length)] as FlowKind),
    );
    const expectations: { account: string; label: string; start: bigint; delta: bigint; hashes: string[] }[] =
      [];

    async function flow(index: number, kind: FlowKind): Promise<void> {
      const seller = Keypair.random();
      const buyer = Keypair.random();
      await friendbot(seller.publicKey());
      await friendbot(buyer.publicKey());
      const sellerTx: string[] = [];
      const buyerTx: string[] = [];
      const sellerStart = await balance(seller.publicKey());
      const buyerStart = await balance(buyer.publicKey());
      const namespace = `crash${options.seed}x${index}`;
      await adminLock.run(() =>
        wallet.invoke(admin, devnet.contracts.allocator, AllocatorFns.reserve, {
          label: namespace,
          owner: seller.publicKey(),
        }),
      );
      const node = namespaceNode(namespace);
      // The console reads the owner live; list, then post the bond.
      const token = await signIn(app as App, seller);
      const created = await (app as App).inject({
        method: "POST",
        url: "/console/market/listings",
        headers: { ...bearer(token), "x-service-namespace": namespace },
        payload: { namespace, priceXlm: "100" },
      });
      if (created.statusCode !== 201) throw new Error(`listing: ${created.statusCode} ${created.body}`);
      const { listing, bond } = created.json() as {
        listing: { id: string };
        bond: { amountXlm: string; memoHash: string };
      };
      const pay = async (from: Keypair, amount: bigint, memo: string) => {
        const sent = await wallet.classic(
          from,
          Operation.payment({
            destination: escrow.publicKey(),
            asset: Asset.native(),
            amount: stroopsToXlm(amount),
          }),
          Memo.hash(memo),
        );
        (from === seller ? sellerTx : buyerTx).push(sent.hash);
      };
      await pay(seller, xlmToStroops(bond.amountXlm), bond.memoHash);
      for (;;) {
        const [row] = await db.select().from(marketListings).where(eq(marketListings.id, listing.id));
        if (row?.state === "active") break;
        await sleep(100);
      }
      const intent = await (app as App).inject({
        method: "POST",
        url: `/v1/market/listings/${listing.id}/intent`,
        payload: { account: buyer.publicKey() },
      });
      if (intent.statusCode !== 200) throw new Error(`intent: ${intent.statusCode} ${intent.body}`);
      const memo = (intent.json() as { pay: { memoHash: string } }).pay.memoHash;
      const propose = async (to: string, lifetime = 3600) => {
        const expires = BigInt(devnet.chain.latest.closeTime) + BigInt(lifetime);
        const r = await wallet.invoke(seller, devnet.contracts.registry, RegistryFns.propose_transfer, {
          node,
          to,
          expires,
        });
        sellerTx.push(r.hash);
        return expires;
      };
      const accept = async (who: Keypair) => {
        const r = await wallet.invoke(who, devnet.contracts.registry, RegistryFns.accept_transfer, { node });
        if (who === buyer) buyerTx.push(r.hash);
      };
      const fee = applyBps(PRICE, FEE_BPS);
      let buyerDelta = 0n;
      let sellerDelta = 0n;
      switch (kind) {
        case "accept":
        case "over":
          await propose(buyer.publicKey());
          await pay(buyer, kind === "over" ? PRICE + xlmToStroops("25") : PRICE, memo);
          await accept(buyer);
          buyerDelta = -PRICE;
          sellerDelta = PRICE - fee;
          break;
        case "cancel": {
          await propose(buyer.publicKey());
          await pay(buyer, PRICE, memo);
          const r = await wallet.invoke(seller, devnet.contracts.registry, RegistryFns.cancel_transfer, {
            node,
          });
          sellerTx.push(r.hash);
          buyerDelta = BOND;
          sellerDelta = -BOND;
          break;
        }
        case "re-aim":
        case "elsewhere": {
          await propose(buyer.publicKey());
          await pay(buyer, PRICE, memo);
          const other = Keypair.random();
          await friendbot(other.publicKey());
          await propose(other.publicKey());
          if (kind === "elsewhere") await accept(other);
          buyerDelta = BOND;
          sellerDelta = -BOND;
          break;
        }
        case "expiry": {
          const expires = await propose(buyer.publicKey(), 4);
          await pay(buyer, PRICE, memo);
          while (BigInt(devnet.chain.latest.closeTime) <= expires) await sleep(200);
          sellerDelta = -BOND;
          break;
        }
        case "under":
          await propose(buyer.publicKey());
          await pay(buyer, xlmToStroops("40"), memo);
          await pay(buyer, xlmToStroops("30"), memo);
          sellerDelta = -BOND;
          break;
        case "early":
          await pay(buyer, PRICE, memo);
          sellerDelta = -BOND;
          break;
      }
      expectations.push(
        {
          account: seller.publicKey(),
          label: `${kind}#${index} seller`,
          start: sellerStart,
          delta: sellerDelta,
          hashes: sellerTx,
        },
        {
          account: buyer.publicKey(),
          label: `${kind}#${index} buyer`,
          start: buyerStart,
          delta: buyerDelta,
          hashes: buyerTx,
        },
      );
    }

    const concurrency = options.concurrency ?? 8;
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, kinds.length) }, async () => {
        while (next < kinds.length) {
          const i = next++;
          await flow(i, kinds[i] as FlowKind);
          log(`flow ${i + 1}/${kinds.length} (${kinds[i]}) on chain`);
        }
      }),
    );
    flowsDone = true;
    await killer;

    // Let the last watcher (never killed again) read up to here and finish everything owed.
    const lastLedger = devnet.chain.latest.sequence;
    const deadline = Date.now() + 600_000;
    for (;;) {
      const [cursorRow] = await db
        .select()
        .from(paymentCursors)
        .where(eq(paymentCursors.name, ESCROW_CURSOR));
      const read = cursorRow?.cursor == null ? 0 : Number(BigInt(cursorRow.cursor) >> 32n);
      if (read < lastLedger) {
        if (Date.now() > deadline)
          throw new Error(`the watcher read up to ledger ${read}, not ${lastLedger}`);
        await sleep(200);
        continue;
      }
      const open = await db
        .select({ id: marketPayments.id })
        .from(marketPayments)
        .where(inArray(marketPayments.state, ["new", "funded"]));
      const owed = await db
        .select({ id: marketPayouts.id })
        .from(marketPayouts)
        .where(inArray(marketPayouts.state, ["pending", "signed"]));
      if (open.length === 0 && owed.length === 0) break;
      if (Date.now() > deadline)
        throw new Error(`${open.length} payments and ${owed.length} payouts still open`);
      await sleep(200);
    }
    await killWatcher("SIGTERM");
    stop.abort();
    await indexing;

    const balanceMismatches: string[] = [];
    for (const e of expectations) {
      let fees = 0n;
      for (const hash of e.hashes) fees += await feeOf(hash);
      const actual = (await balance(e.account)) - e.start;
      if (actual !== e.delta - fees) balanceMismatches.push(`${e.label}: ${actual} ≠ ${e.delta - fees}`);
    }

    // Every transaction the escrow key got onto the chain must be the stored envelope of one paid obligation.
    const payouts = await db.select().from(marketPayouts);
    const paidHashes = new Map(payouts.filter((p) => p.state === "paid").map((p) => [p.txHash, p.id]));
    const escrowTxs: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await server.getTransactions(
        cursor === undefined
          ? { startLedger, pagination: { limit: 200 } }
          : { pagination: { cursor, limit: 200 } },
      );
      for (const tx of page.transactions) {
        const parsed = TransactionBuilder.fromXDR(tx.envelopeXdr, devnet.networkPassphrase);
        const inner = "innerTransaction" in parsed ? parsed.innerTransaction : parsed;
        if (inner.source === escrow.publicKey()) escrowTxs.push(tx.txHash);
      }
      if (page.transactions.length < 200) break;
      cursor = page.cursor;
    }
    let escrowFees = 0n;
    for (const hash of escrowTxs) escrowFees += await feeOf(hash);
    const perObligation = new Map<string, number>();
    let stray = 0;
    for (const hash of escrowTxs) {
      const id = paidHashes.get(hash);
      if (id === undefined) stray++;
      else perObligation.set(id, (perObligation.get(id) ?? 0) + 1);
    }
    const paidTwice = [...perObligation.values()].filter((n) => n > 1).length;
    const r = await reconcile(db, server, escrow.publicKey());
    const payments = await db.select({ id: marketPayments.id }).from(marketPayments);
    const byKind = Object.fromEntries(
      FLOW_KINDS.map((k) => [k, kinds.filter((x) => x === k).length]),
    ) as Record<FlowKind, number>;
    return {
      flows: kinds.length,
      byKind,
      kills,
      payments: payments.length,
      payoutsPaid: payouts.filter((p) => p.state === "paid").length,
      payoutsParked: payouts.filter((p) => p.state === "parked").length,
      escrowTransactions: escrowTxs.length,
      obligationsPaidTwice: paidTwice,
      strayEscrowTransactions: stray,
      balanceMismatches,
      reconcileOk: r.ok,
      floatError: r.float - (escrowInitial - escrowFees),
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    stop.abort();
    const running = child as ChildProcess | null;
    if (running !== null && running.exitCode === null) running.kill("SIGKILL");
    await app?.close();
    await devnet.stop();
    await database?.close();
  }
}
