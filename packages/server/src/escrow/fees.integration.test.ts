// The operator takes the marketplace fee out of the escrow (docs/market.md "Fees"): `namereg escrow withdraw-fees`
// and `fees` as the operator runs them (in this process, through the command's entry) on the watcher's PostgreSQL, the withdrawal paid by the escrow watcher on the
// devnet; every amount is checked as a balance on chain and against `reconcile`.
import { createHash } from "node:crypto";
import { applyBps } from "@namereg/protocol";
import { Keypair, TransactionBuilder } from "@stellar/stellar-sdk";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STEP_LIMIT_MS } from "../../test/fixtures/child-processes.ts";
import { type CliRun, runCli } from "../../test/fixtures/cli.ts";
import {
  escrowCliEnv,
  type MarketHarness,
  startMarketHarness,
  TEST_FEE_BPS,
  xlm,
} from "../../test/fixtures/market.ts";
import { BACKSTOP_MS } from "../../test/fixtures/progress.ts";
import { marketPayouts } from "../db/tables.ts";
import { feeBook, feeWithdrawals, withdrawFees } from "./fees.ts";
import { reconcile, releaseParked } from "./operator.ts";

const PRICE = "100";
const FEE = applyBps(xlm(PRICE), TEST_FEE_BPS); // 2.5 XLM a sale

// The tests, a chain of commands, are bounded by each command's progress, not by a total.
describe("namereg escrow withdraw-fees", { timeout: BACKSTOP_MS }, () => {
  let h: MarketHarness;
  let env: NodeJS.ProcessEnv;
  let treasury: Keypair;
  beforeAll(async () => {
    h = await startMarketHarness("postgres");
    env = escrowCliEnv(h);
    treasury = await h.funded();
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const cli = (...args: string[]): Promise<CliRun> => runCli(["escrow", ...args], env);
  const withdraw = (id: string, amount: string, to = treasury.publicKey()) =>
    cli("withdraw-fees", "--id", id, "--to", to, ...amountArgs(amount), "--reason", "operator's fees");
  const amountArgs = (amount: string) => (amount === "all" ? ["--all"] : ["--amount", amount]);
  const refused = (message: string) => ({
    code: 1,
    stdout: "",
    stderr: `namereg escrow: ${message}\n`,
  });

  /** One sale at PRICE through the escrow: its fee stays in the escrow. */
  async function sell(): Promise<void> {
    const seller = await h.funded();
    const buyer = await h.funded();
    const namespace = await h.namespaceFor(seller);
    const listingId = await h.list(seller, namespace, PRICE);
    const { body } = await h.intent(listingId, buyer.publicKey());
    await h.propose(seller, namespace, buyer.publicKey());
    await h.pay(buyer, PRICE, body.pay.memoHash);
    await h.sync();
    await h.accept(buyer, namespace);
    await h.sync();
  }
  const float = async () => (await reconcile(h.database.db, h.server, h.escrow.publicKey())).float;
  async function feeCharged(hash: string | null): Promise<bigint> {
    if (hash === null) throw new Error("the withdrawal has no transaction");
    const got = await h.server.getTransaction(hash);
    if (got.status !== "SUCCESS") throw new Error(`withdrawal ${hash}: ${got.status}`);
    return BigInt(got.resultXdr.feeCharged.toString());
  }
  const row = async (id: string) =>
    (await h.database.db.select().from(marketPayouts).where(eq(marketPayouts.id, id)))[0];

  it("refuses more than is available, dust, and a destination that is malformed, missing or the escrow, writing nothing", async () => {
    await sell();
    expect(await feeBook(h.database.db)).toMatchObject({ earned: FEE, withdrawn: 0n, available: FEE });

    expect(await withdraw("too-much", "2.5000001")).toEqual(
      refused(
        "2.5000001 XLM asked, only 2.5000000 XLM available (earned 2.5000000 XLM, withdrawn 0.0000000 XLM)",
      ),
    );
    expect(await withdraw("dust", "0.9999999")).toEqual(
      refused("0.9999999 XLM is below 1 XLM (the dust threshold): the escrow sends nothing smaller"),
    );
    expect(await withdraw("typo", "1", "GABC")).toEqual(refused("--to must be a G… account"));
    const nowhere = Keypair.random().publicKey();
    expect(await withdraw("missing", "1", nowhere)).toEqual(
      refused(`${nowhere} does not exist on chain: fees are paid only to an existing account`),
    );
    expect(
      await cli("withdraw-fees", "--to", treasury.publicKey(), "--amount", "1", "--reason", "r"),
    ).toEqual(
      refused("--id is required: it names the withdrawal, so running the command again never pays twice"),
    );

    // The rest of the checks, in process (each a cold process would add seconds and prove nothing more).
    const db = h.database.db;
    const base = { to: treasury.publicKey(), amount: xlm("1"), reason: "r" };
    const escrow = h.escrow.publicKey();
    await expect(
      withdrawFees(db, h.server, escrow, { ...base, to: escrow, requestId: "self" }),
    ).rejects.toThrow("--to is the escrow itself: nothing would leave it");
    await expect(withdrawFees(db, h.server, escrow, { ...base, requestId: "a b" })).rejects.toThrow(
      /--id must/,
    );
    await expect(
      withdrawFees(db, h.server, escrow, { ...base, requestId: "x", reason: " " }),
    ).rejects.toThrow("a reason is required (--reason)");
    expect(await feeWithdrawals(db)).toEqual([]);
  });

  it("pays part of the fee once, however often the command runs; reconcile holds to the stroop on chain", async () => {
    const floatBefore = await float();
    const first = await withdraw("2026-06", "1.5");
    expect(first).toMatchObject({ code: 0, stderr: "" });
    expect(first.stdout).toBe(
      `fee:2026-06: 1.5000000 XLM → ${treasury.publicKey()}; the escrow watcher sends it on its next pass (1.0000000 XLM left available)\n`,
    );
    expect(await withdraw("2026-06", "1.5")).toEqual({
      code: 0,
      stdout: `fee:2026-06: 1.5000000 XLM → ${treasury.publicKey()} was already recorded (pending); nothing new written\n`,
      stderr: "",
    });
    expect(await withdraw("2026-06", "1")).toEqual(
      refused(
        `fee:2026-06 already records 1.5000000 XLM → ${treasury.publicKey()} (pending): a different withdrawal needs another --id`,
      ),
    );
    // Written, not yet sent: the amount moved from the fees held to the payouts owed; the float did not move.
    const written = await reconcile(h.database.db, h.server, h.escrow.publicKey());
    expect(written).toMatchObject({ feesEarned: FEE, feesWithdrawn: xlm("1.5"), fees: FEE - xlm("1.5") });
    expect(written.float).toBe(floatBefore);

    const treasuryBefore = await h.balance(treasury.publicKey());
    const escrowBefore = await h.balance(h.escrow.publicKey());
    await h.sync();
    const paid = await row("fee:2026-06");
    expect(paid).toMatchObject({ state: "paid", purpose: "fee_withdrawal", amount: xlm("1.5") });
    const networkFee = await feeCharged(paid?.txHash ?? null);
    const sent = TransactionBuilder.fromXDR(paid?.envelope ?? "", h.devnet.networkPassphrase);
    // A hash memo of the obligation's id: the chain says which obligation the payment paid (docs/market.md).
    expect("memo" in sent ? sent.memo.type : null).toBe("hash");
    expect("memo" in sent ? Buffer.from(sent.memo.value as Buffer).toString("hex") : null).toBe(
      createHash("sha256").update("fee:2026-06").digest("hex"),
    );
    expect((await h.balance(treasury.publicKey())) - treasuryBefore).toBe(xlm("1.5"));
    expect((await h.balance(h.escrow.publicKey())) - escrowBefore).toBe(-xlm("1.5") - networkFee);

    // The same command again, after it was paid: nothing written, nothing sent.
    const again = await withdraw("2026-06", "1.5");
    expect(again.stdout).toContain("was already recorded (paid); nothing new written");
    await h.sync();
    expect(await h.balance(treasury.publicKey())).toBe(treasuryBefore + xlm("1.5"));
    expect(await feeWithdrawals(h.database.db)).toHaveLength(1);

    const rec = await cli("reconcile");
    expect(rec.code).toBe(0);
    expect(rec.stdout).toMatch(/^fees earned +2\.5000000 XLM$/m);
    expect(rec.stdout).toMatch(/^fees withdrawn +1\.5000000 XLM$/m);
    expect(rec.stdout).toMatch(/^fees held +1\.0000000 XLM$/m);
    expect(rec.stdout).toContain("reconciled");
    // To the stroop: the escrow's float paid the network fee of the withdrawal and nothing else.
    expect(await float()).toBe(floatBefore - networkFee);

    const listed = await cli("fees");
    expect(listed.code).toBe(0);
    expect(listed.stdout.split("\n").slice(0, 5)).toEqual([
      `fees earned                               2.5000000 XLM`,
      `withdrawn: paid                           1.5000000 XLM`,
      `withdrawn: being sent                     0.0000000 XLM`,
      `withdrawn: parked                         0.0000000 XLM`,
      `available                                 1.0000000 XLM`,
    ]);
    expect(listed.stdout).toContain(`fee:2026-06  paid  1.5000000 XLM  → ${treasury.publicKey()}`);

    // --all takes what is left; then nothing is.
    expect((await withdraw("rest", "all")).code).toBe(0);
    await h.sync();
    expect(await row("fee:rest")).toMatchObject({ state: "paid", amount: FEE - xlm("1.5") });
    expect(await withdraw("more", "all")).toEqual(
      refused(
        "only 0.0000000 XLM available (earned 2.5000000 XLM, withdrawn 2.5000000 XLM): below 1 XLM, nothing to send",
      ),
    );
    expect((await reconcile(h.database.db, h.server, h.escrow.publicKey())).ok).toBe(true);
  });

  it("a parked withdrawal keeps its amount out of the fees; kept in the escrow, it is available again", async () => {
    // A withdrawal whose payment fails on chain is parked (the watcher never drops it); here, written as parked.
    const db = h.database.db;
    await sell();
    const result = await withdrawFees(db, h.server, h.escrow.publicKey(), {
      requestId: "parked",
      to: treasury.publicKey(),
      amount: xlm("2"),
      reason: "r",
    });
    await db
      .update(marketPayouts)
      .set({ state: "parked", parkedReason: "failed on chain" })
      .where(eq(marketPayouts.id, result.id));
    expect(await feeBook(db)).toMatchObject({ parked: xlm("2"), available: FEE - xlm("2") });
    expect((await reconcile(db, h.server, h.escrow.publicKey())).ok).toBe(true);
    await releaseParked(db, result.id, { keep: true, reason: "will withdraw later" });
    expect(await feeBook(db)).toMatchObject({ parked: 0n, available: FEE });
    // Released to the treasury instead: the release (same payment id) is the withdrawal now.
    const again = await withdrawFees(db, h.server, h.escrow.publicKey(), {
      requestId: "parked-2",
      to: treasury.publicKey(),
      amount: xlm("2"),
      reason: "r",
    });
    await db
      .update(marketPayouts)
      .set({ state: "parked", parkedReason: "failed on chain" })
      .where(eq(marketPayouts.id, again.id));
    await releaseParked(db, again.id, { to: treasury.publicKey(), reason: "retry" });
    expect(await feeBook(db)).toMatchObject({ inFlight: xlm("2"), available: FEE - xlm("2") });
    const before = await h.balance(treasury.publicKey());
    await h.sync();
    expect((await h.balance(treasury.publicKey())) - before).toBe(xlm("2"));
    expect(await feeBook(db)).toMatchObject({ paid: xlm("4.5"), available: FEE - xlm("2") });
    expect((await reconcile(db, h.server, h.escrow.publicKey())).ok).toBe(true);
  });

  it("two withdrawals at once cannot both spend the same fees", async () => {
    await sell();
    const { available } = await feeBook(h.database.db);
    expect(available).toBeGreaterThanOrEqual(FEE);
    const half = (available / 2n + 1n) as bigint; // each alone fits, both together do not
    const amount = `${half / 10_000_000n}.${(half % 10_000_000n).toString().padStart(7, "0")}`;
    // The test holds the payouts table against writes (reads go on), then lets go once both commands wait on a
    // lock. Without a lock around check and insert, each would have read the same "available" and be waiting to
    // write its withdrawal, and both would; with it, the second waits for the first to commit before it reads.
    const runs = await h.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table market_payouts in share mode`);
      const started = [withdraw("race-a", amount), withdraw("race-b", amount)];
      let early: CliRun | null = null;
      for (const run of started) void run.then((r) => (early ??= r));
      const deadline = Date.now() + STEP_LIMIT_MS;
      for (;;) {
        const [waiting] = await h.database.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        );
        if (waiting?.n === 2) return started;
        if (early !== null) throw new Error(`a command ended before both waited: ${JSON.stringify(early)}`);
        if (Date.now() > deadline) throw new Error("the two commands never both reached the check");
        await new Promise((r) => setTimeout(r, 100));
      }
    });
    const results = await Promise.all(runs);
    expect(results.map((r) => r.code).sort()).toEqual([0, 1]);
    const loser = results.find((r) => r.code === 1);
    expect(loser?.stderr).toMatch(/XLM asked, only .* XLM available/);
    const rows = (await feeWithdrawals(h.database.db)).filter((w) => w.id.startsWith("fee:race-"));
    expect(rows.map((w) => w.amount)).toEqual([half]);
    await h.sync();
    expect(await feeBook(h.database.db)).toMatchObject({ available: available - half, inFlight: 0n });
    expect((await reconcile(h.database.db, h.server, h.escrow.publicKey())).ok).toBe(true);
  });
});
