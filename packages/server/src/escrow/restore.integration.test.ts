// A database restored from a backup taken before a payout (docs/operations.md "Backups and restore"): the watcher
// finds the payout on chain by its memo instead of paying again, and `namereg escrow reconcile` judges from the
// chain — it names the payout the restored database does not know until the watcher has found it, and names any
// payment of the escrow key no obligation explains, or that pays one obligation twice.

import { createHash } from "node:crypto";
import { Asset, Memo, Operation } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../test/fixtures/cli.ts";
import {
  escrowCliEnv,
  type MarketHarness,
  payoutsOf,
  startMarketHarness,
} from "../../test/fixtures/market.ts";
import { dumpDatabase, restoreDatabase } from "../../test/fixtures/pg-dump.ts";
import { BACKSTOP_MS } from "../../test/fixtures/progress.ts";
import { marketPayouts } from "../db/tables.ts";

describe("a database restored from before a payout", { timeout: BACKSTOP_MS }, () => {
  let h: MarketHarness;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    h = await startMarketHarness("postgres");
    env = escrowCliEnv(h);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  // In this process (fixtures/cli.ts): a cold process per run cost seconds, and the process entry of
  // `escrow reconcile` is proven in cli.integration.test.ts.
  const reconcile = () => runCli(["escrow", "reconcile"], env);

  it("does not bounce a payment twice, and reconcile names the bounce until the watcher has found it", async () => {
    const buyer = await h.funded();
    await h.sync();
    const dump = await dumpDatabase(h.database.url);
    try {
      // 5 XLM without a memo: bounced.
      const paid = await h.pay(buyer, "5", null);
      await h.sync();
      const [bounce] = await payoutsOf(h, paid.hash);
      expect(bounce).toMatchObject({ purpose: "bounce", state: "paid" });
      const buyerAfter = await h.balance(buyer.publicKey());
      const escrowAfter = await h.balance(h.escrow.publicKey());

      await restoreDatabase(h.database.url, dump);
      expect(await payoutsOf(h, paid.hash)).toEqual([]);
      // Before the watcher reads the chain again, the chain holds a payout the database does not explain.
      const caught = await reconcile();
      expect(caught.code).toBe(1);
      expect(caught.stdout).toContain(`UNEXPLAINED ${bounce?.txHash}`);
      expect(caught.stdout).not.toMatch(/^reconciled$/m);

      await h.sync();
      // The bounce is judged again, found on chain by its memo and recorded; nothing left the escrow.
      expect(await payoutsOf(h, paid.hash)).toMatchObject([
        { id: bounce?.id, state: "paid", txHash: bounce?.txHash, paidLedger: bounce?.paidLedger },
      ]);
      expect(await h.balance(buyer.publicKey())).toBe(buyerAfter);
      expect(await h.balance(h.escrow.publicKey())).toBe(escrowAfter);
      const clean = await reconcile();
      expect(clean.stdout).not.toContain("UNEXPLAINED");
      expect(clean).toMatchObject({ code: 0, stderr: "" });
      expect(clean.stdout).toMatch(/^reconciled$/m);
    } finally {
      await dump.remove();
    }
  });

  it("reconcile names a payment of the escrow key no obligation explains, and an obligation paid twice", async () => {
    const other = (await h.funded()).publicKey();
    const id = "twice:0:refund";
    const now = new Date();
    await h.database.db.insert(marketPayouts).values({
      id,
      paymentId: "twice:0",
      purpose: "refund",
      destination: other,
      amount: 20_000_000n,
      state: "paid",
      createdAt: now,
      updatedAt: now,
    });
    const pay = (memo: Memo) =>
      h.wallet.classic(
        h.escrow,
        Operation.payment({ destination: other, asset: Asset.native(), amount: "2" }),
        memo,
      );
    // The memo the watcher gives a payout of this obligation: the sha256 of its id (docs/market.md).
    const memo = createHash("sha256").update(id).digest("hex");
    const first = await pay(Memo.hash(memo));
    const second = await pay(Memo.hash(memo));
    const stray = await pay(Memo.text("by hand"));
    const judged = await reconcile();
    expect(judged.code).toBe(1);
    expect(judged.stdout).toContain(`PAID TWICE ${id}: ${first.hash}, ${second.hash}`);
    expect(judged.stdout).toContain(
      `UNEXPLAINED ${stray.hash}  ledger ${stray.ledger}  2.0000000 XLM → ${other}  memo text by hand`,
    );
  });
});
