// The escrow watcher: one pass reads the escrow's new payments (watchers/payment-ingest.ts, durable cursor), takes the
// verdicts of docs/market.md "Buyer flow" (verdicts.ts, settlement.ts) and sends what is owed (payouts.ts). Every step is idempotent and
// commits its progress before the next, so a process killed at any instruction resumes without paying twice.

import type { Keypair, rpc } from "@stellar/stellar-sdk";
import type { AccountPayment, AccountPaymentsSource } from "../chain/account-payments.ts";
import type { OwnTransaction } from "../chain/account-transactions.ts";
import { marketEscrowTransactions, marketPayments } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { processedLedger } from "../watchers/indexer-progress.ts";
import { type IngestResult, ingestPayments } from "../watchers/payment-ingest.ts";
import { runPasses } from "../watchers/run-passes.ts";
import { type PayoutSender, sendPayouts } from "./payouts.ts";
import { closeListings, decideFundedDeposits } from "./settlement.ts";
import { ESCROW_CATCH_UP, ESCROW_CURSOR } from "./status.ts";
import type { VerdictDeps } from "./verdict-rows.ts";
import { decideNewPayments } from "./verdicts.ts";

export interface EscrowWatcherOptions {
  readonly db: Db;
  readonly server: rpc.Server;
  readonly networkPassphrase: string;
  readonly escrow: Keypair;
  readonly registryId: string;
  /** First ledger on the very first run; default: the chain head then. */
  readonly startLedger?: number | null;
  readonly now?: () => Date;
  readonly settle?: () => Promise<void>;
  readonly attempts?: number;
  readonly pageSize?: number;
  /** Most getTransactions pages per pass, so one pass stays short while catching up. */
  readonly maxPages?: number;
  readonly checkpoint?: PayoutSender["checkpoint"];
  readonly onPayout?: PayoutSender["onOutcome"];
}

/** Stores the escrow's new payments, in the transaction that advances its cursor (the watcher's and catch-up's). */
export async function storeEscrowPayments(tx: Db, payments: readonly AccountPayment[], decidedAt: Date) {
  await tx
    .insert(marketPayments)
    .values(
      payments.map(({ kind, ...p }) =>
        // Only a `payment` operation is judged by the rules of docs/market.md; XLM that arrived any other way (a
        // token transfer, a path payment, a merge) is parked as it is stored, for the operator.
        kind === "payment" ? { ...p, state: "new" } : { ...p, state: "parked", verdict: kind, decidedAt },
      ),
    )
    .onConflictDoNothing();
}

/**
 * Stores what the escrow sent, with the payments and the cursor (the watcher's and catch-up's): the payouts' look-up
 * before signing and `reconcile` read it (paid-on-chain.ts).
 */
export async function storeEscrowTransactions(tx: Db, own: readonly OwnTransaction[]) {
  await tx
    .insert(marketEscrowTransactions)
    .values([...own])
    .onConflictDoNothing();
}

export interface PassResult {
  readonly payments: number;
  readonly decided: number;
  readonly paidOrParked: number;
}

export class EscrowWatcher {
  readonly #o: EscrowWatcherOptions;
  readonly #now: () => Date;
  readonly #source: AccountPaymentsSource;

  constructor(options: EscrowWatcherOptions) {
    this.#o = options;
    this.#now = options.now ?? (() => new Date());
    this.#source = {
      server: options.server,
      networkPassphrase: options.networkPassphrase,
      account: options.escrow.publicKey(),
      own: true,
      ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
    };
  }

  /** Reads new payments into `market_payments` with the cursor, page by page. */
  async ingest(): Promise<IngestResult> {
    const { db, server } = this.#o;
    return ingestPayments({
      db,
      cursorName: ESCROW_CURSOR,
      source: this.#source,
      startLedger: async () => this.#o.startLedger ?? (await server.getLatestLedger()).sequence,
      now: this.#now,
      ...(this.#o.maxPages === undefined ? {} : { maxPages: this.#o.maxPages }),
      store: (tx, payments) => storeEscrowPayments(tx, payments, this.#now()),
      storeOwn: storeEscrowTransactions,
      what: "escrow watcher",
      recovery: ESCROW_CATCH_UP,
    });
  }

  async runOnce(): Promise<PassResult> {
    const o = this.#o;
    const ingested = await this.ingest();
    // One view for the whole pass, read once and no further than the payments just read: with the indexer read
    // again later in the pass, or ahead of a watcher still catching up, a listing could close on an acceptance
    // ("namespace moved", bond back) while the deposit paid before it is not judged yet, then bounced as on an
    // inactive listing: the buyer would keep the namespace and the money.
    const indexed = await processedLedger(o.db);
    const verdicts: VerdictDeps = {
      processed: indexed === null ? null : Math.min(indexed, ingested.throughLedger),
      db: o.db,
      registryId: o.registryId,
      now: this.#now,
      ledgerCloseTime: async (ledger) => {
        const page = await o.server.getLedgers({ startLedger: ledger, pagination: { limit: 1 } });
        const closed = page.ledgers[0];
        if (closed === undefined) throw new Error(`ledger ${ledger} is not known to the RPC`);
        return BigInt(closed.ledgerCloseTime);
      },
    };
    const decided =
      (await decideNewPayments(verdicts)) +
      (await decideFundedDeposits(verdicts)) +
      (await closeListings(verdicts));
    const paidOrParked = await sendPayouts({
      db: o.db,
      server: o.server,
      networkPassphrase: o.networkPassphrase,
      escrow: o.escrow,
      now: this.#now,
      settle: o.settle ?? (() => new Promise((r) => setTimeout(r, 1000))),
      ...(o.attempts === undefined ? {} : { attempts: o.attempts }),
      catchUp: async () => {
        const read = await this.ingest();
        return read.throughLedger;
      },
      ...(o.checkpoint === undefined ? {} : { checkpoint: o.checkpoint }),
      ...(o.onPayout === undefined ? {} : { onOutcome: o.onPayout }),
    });
    return { payments: ingested.count, decided, paidOrParked };
  }

  /** Passes until aborted, `pollMs` apart; a failed pass is reported and retried. */
  async run(
    signal: AbortSignal,
    opts: { pollMs?: number; onError?: (err: unknown, retryInMs: number) => void } = {},
  ): Promise<void> {
    await runPasses(signal, () => this.runOnce(), {
      pollMs: opts.pollMs ?? 2000,
      ...(opts.onError === undefined ? {} : { onError: opts.onError }),
    });
  }
}
