// What the escrow must hold for the operator rather than judge (docs/market.md, "Parked, never absorbed"): dust,
// whose automatic refund would cost the escrow a network fee each time, and XLM moved by the native token
// contract instead of a payment operation. Real SDK-signed transactions on the devnet, balances read on chain,
// and the operator's commands run as the operator runs them (`namereg escrow`, in this process through the
// command's entry: test/fixtures/cli.ts).
import type { Keypair } from "@stellar/stellar-sdk";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../test/fixtures/cli.ts";
import {
  escrowCliEnv,
  type MarketHarness,
  payoutsOf,
  startMarketHarness,
  xlm,
} from "../../test/fixtures/market.ts";
import { transferNativeToken } from "../../test/fixtures/token-transfer.ts";
import { marketPayments } from "../db/tables.ts";
import { DUST_REASON } from "./obligations.ts";
import { reconcile } from "./operator.ts";

const PRICE = "100";

describe("odd payments to the escrow are parked for the operator", () => {
  let h: MarketHarness;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    h = await startMarketHarness("postgres");
    env = escrowCliEnv(h);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const cli = (...args: string[]) => runCli(["escrow", ...args], env);

  /** A listing with the seller's proposal to a funded buyer live, and the buyer's intent memo. */
  async function buyerWithIntent(): Promise<{ buyer: Keypair; memo: string }> {
    const seller = await h.funded();
    const buyer = await h.funded();
    const namespace = await h.namespaceFor(seller);
    const listingId = await h.list(seller, namespace, PRICE);
    const { status, body } = await h.intent(listingId, buyer.publicKey());
    expect(status).toBe(200);
    await h.propose(seller, namespace, buyer.publicKey());
    return { buyer, memo: body.pay.memoHash };
  }
  const escrowComponent = async () => {
    const status = (await h.app.inject({ url: "/v1/status" })).json();
    return status.components.find((c: { name: string }) => c.name === "Escrow watcher");
  };

  it("a 1-stroop payment is parked, not refunded: the escrow spends no fee on it, and the operator decides", async () => {
    const { buyer, memo } = await buyerWithIntent();
    const escrowBefore = await h.balance(h.escrow.publicKey());
    const buyerBefore = await h.balance(buyer.publicKey());
    const withMemo = await h.pay(buyer, "0.0000001", memo);
    const noMemo = await h.pay(buyer, "0.0000001", null);
    await h.sync();
    // Float intact: the escrow holds both stroops and paid no network fee for them.
    expect((await h.balance(h.escrow.publicKey())) - escrowBefore).toBe(2n);
    expect((await h.balance(buyer.publicKey())) - buyerBefore).toBe(-2n - 200n); // its own two fees
    const owed = [...(await payoutsOf(h, withMemo.hash)), ...(await payoutsOf(h, noMemo.hash))];
    expect(owed.map((p) => [p.id, p.purpose, p.amount, p.state, p.parkedReason, p.txHash])).toEqual([
      [`${withMemo.hash}:0:refund`, "refund", 1n, "parked", DUST_REASON, null],
      [`${noMemo.hash}:0:bounce`, "bounce", 1n, "parked", DUST_REASON, null],
    ]);
    expect(await escrowComponent()).toMatchObject({ state: "degraded", parkedPayouts: 2 });
    const listed = await cli("parked");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(
      `${withMemo.hash}:0:refund  payout  0.0000001 native  → ${buyer.publicKey()}`,
    );
    expect(listed.stdout).toContain(`${noMemo.hash}:0:bounce  payout`);
    expect(listed.stdout).toContain("dust: below 1 XLM");
    expect((await reconcile(h.database.db, h.server, h.escrow.publicKey())).ok).toBe(true);

    // The operator keeps one (not worth a fee) and pays the other back: each once.
    const kept = await cli("release", `${noMemo.hash}:0:bounce`, "--keep", "--reason", "dust spam");
    expect(kept).toMatchObject({ code: 0, stdout: `${noMemo.hash}:0:bounce kept in the escrow\n` });
    expect((await cli("release", `${withMemo.hash}:0:refund`, "--reason", "buyer asked")).code).toBe(0);
    const escrowMid = await h.balance(h.escrow.publicKey());
    const buyerMid = await h.balance(buyer.publicKey());
    await h.sync();
    expect((await h.balance(buyer.publicKey())) - buyerMid).toBe(1n);
    expect((await h.balance(h.escrow.publicKey())) - escrowMid).toBe(-1n - 100n);
    expect((await cli("release", `${withMemo.hash}:0:refund`, "--reason", "again")).code).toBe(1);
    expect(await escrowComponent()).toMatchObject({ state: "operational", parkedPayouts: 0 });
  }, 120_000);

  it("a native-token transfer with the intent's memo is parked, never absorbed, and refunded once by the operator", async () => {
    const { buyer, memo } = await buyerWithIntent();
    const { float: floatBefore, parked: heldBefore } = await reconcile(
      h.database.db,
      h.server,
      h.escrow.publicKey(),
    );
    const parkedBefore = (await escrowComponent()).parkedPayouts as number;
    const escrowBefore = await h.balance(h.escrow.publicKey());
    const sent = await transferNativeToken(h.wallet, buyer, h.escrow.publicKey(), xlm("5"), memo);
    await h.sync();
    expect((await h.balance(h.escrow.publicKey())) - escrowBefore).toBe(xlm("5"));
    const rows = await h.database.db
      .select()
      .from(marketPayments)
      .where(eq(marketPayments.txHash, sent.hash));
    expect(rows.map((r) => [r.state, r.verdict, r.asset, r.amount, r.source, r.memo])).toEqual([
      ["parked", "token_transfer", "native", xlm("5"), buyer.publicKey(), memo],
    ]);
    const id = rows[0]?.id ?? "";
    expect(await escrowComponent()).toMatchObject({ state: "degraded", parkedPayouts: parkedBefore + 1 });
    // Held for the buyer, not counted as the escrow's own float.
    const books = await reconcile(h.database.db, h.server, h.escrow.publicKey());
    expect(books.parked - heldBefore).toBe(xlm("5"));
    expect(books.float).toBe(floatBefore);
    const listed = await cli("parked");
    expect(listed.stdout).toContain(`${id}  payment  5.0000000 native  → ${buyer.publicKey()}`);
    expect(listed.stdout).toContain("a token contract transfer");

    expect((await cli("refund", id, "--reason", "")).code).toBe(1);
    const refunded = await cli("refund", id, "--reason", "sent by token transfer");
    expect(refunded.code).toBe(0);
    expect(refunded.stdout).toContain(`${id}:refund: 5.0000000 XLM → ${buyer.publicKey()}`);
    const again = await cli("refund", id, "--reason", "twice");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("not parked");
    const buyerBefore = await h.balance(buyer.publicKey());
    await h.sync();
    expect((await h.balance(buyer.publicKey())) - buyerBefore).toBe(xlm("5"));
    expect((await payoutsOf(h, sent.hash)).map((p) => [p.id, p.state])).toEqual([[`${id}:refund`, "paid"]]);
    expect((await escrowComponent()).parkedPayouts).toBe(parkedBefore);
    const after = await reconcile(h.database.db, h.server, h.escrow.publicKey());
    expect(after.ok).toBe(true);
    expect(after.float).toBe(floatBefore - 100n); // the refund's network fee
  }, 120_000);
});
