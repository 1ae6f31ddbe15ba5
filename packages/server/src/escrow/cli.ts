// `namereg escrow parked | release <id> [--to G… | --keep] --reason "…" | refund <id> [--to G…] --reason "…" |
// fees | withdraw-fees --id <id> --to G… (--amount <XLM> | --all) --reason "…" | reconcile | watch`.
import { stroopsToXlm, xlmToStroops } from "@namereg/protocol";
import { rpcServer } from "../chain/rpc-server.ts";
import type { Config } from "../config/index.ts";
import type { Db } from "../db/types.ts";
import type { CommandIo } from "../process/command-io.ts";
import { openRuntime } from "../process/runtime.ts";
import { catchUpCommand } from "../watchers/catch-up-command.ts";
import { watchCommand } from "../watchers/watch-command.ts";
import type { ChainAudit } from "./chain-audit.ts";
import { FeeWithdrawalError, feeBook, feeWithdrawals, withdrawFees } from "./fees.ts";
import { registerEscrowGauges } from "./metrics.ts";
import { listParked, ReleaseError, reconcile, refundParked, releaseParked } from "./operator.ts";
import { ESCROW_CURSOR } from "./status.ts";
import { storeEscrowPayments, storeEscrowTransactions } from "./watcher.ts";
import { ESCROW_WATCHER_VARIABLES, runEscrowWatcherProcess } from "./watcher-process.ts";

export const ESCROW_USAGE = `usage: namereg escrow <command>

  parked                                   list parked payouts and payments
  release <id> [--to G…] --reason "…"      pay a parked payout again (or to another account), recording why;
                                           a parked non-XLM payment: record that it was returned by hand
  release <id> --keep --reason "…"         keep a parked payout or XLM payment in the escrow, recording why
  refund <id> [--to G…] --reason "…"       send a parked XLM payment back to its sender (or to another account)
  fees                                     fees earned, withdrawn and available; every fee withdrawal
  withdraw-fees --id <id> --to G… --amount <XLM> --reason "…"
                                           pay fees out of the escrow (at most what is available, at least 1 XLM);
                                           --all instead of --amount takes everything available. The id names
                                           the withdrawal: the same id again never pays twice
  reconcile                                escrow balance on chain vs what it holds and owes, and every payment
                                           of the escrow key on chain no obligation explains; exit 1 on either
  catch-up --rpc <url>                     read the watcher's retention gap (its cursor fell out of RPC_URL's
                                           retention) from an RPC that still holds those ledgers; exit 1 if not
  watch                                    run the escrow watcher only; needs
                                           ${ESCROW_WATCHER_VARIABLES.join(", ")}`;

const WANTS: Record<string, string> = {
  "--to": "a G… account",
  "--reason": "a text",
  "--id": "an id",
  "--amount": "an XLM amount",
};

/**
 * The value after `name`. A flag given without one (last, or followed by another flag) is refused, never read as
 * absent: `--to $ADDR` with an empty variable must not quietly pay the original destination.
 */
function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at === -1) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith("--"))
    throw new ReleaseError(`${name} needs ${WANTS[name] ?? "a value"} after it`);
  return value;
}

const OPERATOR_COMMANDS = new Set(["parked", "release", "refund", "fees", "withdraw-fees", "reconcile"]);

export async function escrowCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "watch") {
    return watchCommand(
      {
        command: "namereg escrow watch",
        enabled: (config) => config.market.enabled,
        off: "the marketplace is off (set MARKET_ENABLED=true and its escrow settings)",
        registerGauges: registerEscrowGauges,
        run: runEscrowWatcherProcess,
      },
      io,
    );
  }
  if (sub === "catch-up") {
    return catchUpCommand(
      {
        feature: "escrow",
        what: "escrow watcher",
        cursorName: ESCROW_CURSOR,
        account: (config) => config.market.escrowAccount,
        accountVariable: "ESCROW_ACCOUNT",
        store: storeEscrowPayments,
        storeOwn: storeEscrowTransactions,
      },
      rest,
      io,
    );
  }
  if (!OPERATOR_COMMANDS.has(sub ?? "")) {
    io.err(ESCROW_USAGE);
    return 1;
  }
  const rt = await openRuntime("migrate", io, { quiet: true });
  const line = lineTo(io);
  try {
    const db = rt.database.db;
    if (sub === "parked") {
      const items = await listParked(db);
      if (items.length === 0) io.out("nothing is parked");
      for (const p of items) {
        io.out(
          `${p.id}  ${p.kind}  ${stroopsToXlm(p.amount)} ${p.asset}  → ${p.destination}  since ${p.since.toISOString()}  ${p.reason}`,
        );
      }
      return 0;
    }
    if (sub === "release") {
      const [id] = rest;
      if (id === undefined) throw new ReleaseError("which id? (namereg escrow parked lists them)");
      const to = option(rest, "--to");
      const keep = rest.includes("--keep");
      const result = await releaseParked(db, id, {
        reason: option(rest, "--reason") ?? "",
        ...(to === undefined ? {} : { to }),
        ...(keep ? { keep } : {}),
      });
      io.out(
        result.newObligation !== null
          ? `${id} released as ${result.newObligation}; the escrow watcher sends it on its next pass`
          : keep
            ? `${id} kept in the escrow`
            : `${id} marked as settled by hand`,
      );
      return 0;
    }
    if (sub === "refund") {
      const [id] = rest;
      if (id === undefined) throw new ReleaseError("which id? (namereg escrow parked lists them)");
      const to = option(rest, "--to");
      const result = await refundParked(db, id, {
        reason: option(rest, "--reason") ?? "",
        ...(to === undefined ? {} : { to }),
      });
      io.out(
        `${id} refunded as ${result.obligation}: ${stroopsToXlm(result.amount)} XLM → ${result.destination}; the escrow watcher sends it on its next pass`,
      );
      return 0;
    }
    if (sub === "fees") {
      await printFees(db, io);
      return 0;
    }
    const chain = chainOf(rt.config, sub ?? "reconcile");
    if (sub === "withdraw-fees") {
      await withdrawCommand(db, chain, rest, io);
      return 0;
    }
    const r = await reconcile(db, chain.server, chain.escrow);
    line("escrow balance on chain", r.balance);
    line("funded deposits", r.deposits);
    line("payments not yet judged", r.undecided);
    line("seller bonds", r.bonds);
    line("payouts owed", r.owed);
    line("parked", r.parked);
    line("fees earned", r.feesEarned);
    line("fees withdrawn", r.feesWithdrawn);
    line("fees held", r.fees);
    line("required", r.required);
    line("float (balance - required)", r.float);
    printChainAudit(r.chain, io);
    if (r.float < 0n) io.out("MISMATCH: the escrow holds less than it owes");
    if (r.ok) io.out("reconciled");
    return r.ok ? 0 : 1;
  } catch (err) {
    if (err instanceof ReleaseError || err instanceof FeeWithdrawalError) {
      io.err(`namereg escrow: ${err.message}`);
      return 1;
    }
    throw err;
  } finally {
    await rt.database.close();
  }
}

/** The chain's side: every payment of the escrow key the database does not explain, or explains twice. */
function printChainAudit(chain: ChainAudit, io: CommandIo): void {
  const through = chain.throughLedger === null ? "nothing read yet" : `through ledger ${chain.throughLedger}`;
  io.out(`${"escrow payments on chain".padEnd(28)} ${String(chain.payments).padStart(22)}     (${through})`);
  for (const u of chain.unexplained) {
    const moved = u.moves
      .map((m) =>
        m.amount === null
          ? `${m.type}${m.destination === null ? "" : ` → ${m.destination}`}`
          : `${m.asset === "native" ? `${stroopsToXlm(BigInt(m.amount))} XLM` : `${m.amount} ${m.asset}`} → ${m.destination}`,
      )
      .join(", ");
    io.out(
      `UNEXPLAINED ${u.txHash}  ledger ${u.ledger}  ${moved}  memo ${u.memoType}${u.memo === null ? "" : ` ${u.memo}`}`,
    );
  }
  for (const t of chain.paidTwice) io.out(`PAID TWICE ${t.obligation}: ${t.txHashes.join(", ")}`);
  if (chain.unexplained.length > 0)
    io.out(
      `MISMATCH: ${chain.unexplained.length} payment(s) of the escrow on chain that no obligation of this database explains. ` +
        "After a restore, let the watcher read the chain again and reconcile again (it finds its payouts by their memo); " +
        "otherwise stop the watcher and investigate: something else used the escrow key, or the database lost a decision",
    );
  if (chain.paidTwice.length > 0)
    io.out(`MISMATCH: ${chain.paidTwice.length} obligation(s) paid more than once on chain`);
}

/** One figure of the books: its label, then the amount in XLM right-aligned. */
const lineTo = (io: CommandIo) => (label: string, v: bigint) =>
  io.out(`${label.padEnd(28)} ${stroopsToXlm(v).padStart(22)} XLM`);

function chainOf(config: Config, sub: string) {
  const { rpcUrl } = config.chain;
  const escrow = config.market.escrowAccount;
  if (rpcUrl === null || escrow === null) throw new Error(`${sub} needs RPC_URL and ESCROW_ACCOUNT`);
  return { server: rpcServer(rpcUrl), escrow };
}

async function printFees(db: Db, io: CommandIo): Promise<void> {
  const line = lineTo(io);
  const book = await feeBook(db);
  line("fees earned", book.earned);
  line("withdrawn: paid", book.paid);
  line("withdrawn: being sent", book.inFlight);
  line("withdrawn: parked", book.parked);
  line("available", book.available);
  for (const w of await feeWithdrawals(db)) {
    io.out(
      `${w.id}  ${w.state}  ${stroopsToXlm(w.amount)} XLM  → ${w.destination}  ${w.createdAt.toISOString()}  ${w.note ?? ""}`,
    );
  }
}

async function withdrawCommand(
  db: Db,
  chain: ReturnType<typeof chainOf>,
  args: readonly string[],
  io: CommandIo,
): Promise<void> {
  const requestId = option(args, "--id");
  const to = option(args, "--to");
  const amountText = option(args, "--amount");
  const all = args.includes("--all");
  if (requestId === undefined)
    throw new FeeWithdrawalError(
      "--id is required: it names the withdrawal, so running the command again never pays twice",
    );
  if (to === undefined) throw new FeeWithdrawalError("--to is required: the G… account to pay the fees to");
  if (all === (amountText !== undefined))
    throw new FeeWithdrawalError("say how much: --amount <XLM> or --all");
  let amount: bigint | "all" = "all";
  if (amountText !== undefined) {
    try {
      amount = xlmToStroops(amountText);
    } catch {
      throw new FeeWithdrawalError(`--amount ${amountText} is not an XLM amount (at most 7 decimals)`);
    }
  }
  const result = await withdrawFees(db, chain.server, chain.escrow, {
    requestId,
    to,
    amount,
    reason: option(args, "--reason") ?? "",
  });
  const what = `${result.id}: ${stroopsToXlm(result.amount)} XLM → ${result.destination}`;
  io.out(
    result.created
      ? `${what}; the escrow watcher sends it on its next pass (${stroopsToXlm(result.available)} XLM left available)`
      : `${what} was already recorded (${result.state}); nothing new written`,
  );
}
