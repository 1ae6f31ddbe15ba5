// Classic accounts through the unchanged SDK: friendbot, payments with memos, the real failure shapes.
import {
  Account,
  Asset,
  Keypair,
  Memo,
  Operation,
  type rpc,
  scValToNative,
  TransactionBuilder,
  type xdr,
} from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, itConformsToOpenRpc, startHarness } from "../../test/fixtures/harness.ts";
import { accountLedgerKey } from "../chain/accounts.ts";

let h: Harness;
const alice = Keypair.random();
const bob = Keypair.random();

beforeAll(async () => {
  h = await startHarness();
  for (const kp of [alice, bob]) {
    const res = await fetch(`${h.devnet.friendbotUrl}?addr=${kp.publicKey()}`);
    expect(res.status).toBe(200);
  }
});
afterAll(async () => h?.close());

async function payment(
  from: Keypair,
  to: string,
  amount: string,
  opts: { memo?: Memo; fee?: string; account?: Account; timeout?: number } = {},
) {
  const account = opts.account ?? (await h.server.getAccount(from.publicKey()));
  const builder = new TransactionBuilder(account, {
    fee: opts.fee ?? "100",
    networkPassphrase: h.devnet.networkPassphrase,
  })
    .addOperation(Operation.payment({ destination: to, asset: Asset.native(), amount }))
    .setTimeout(opts.timeout ?? 60);
  if (opts.memo !== undefined) builder.addMemo(opts.memo);
  return builder.build();
}

async function sendAndClose(tx: Parameters<rpc.Server["sendTransaction"]>[0]) {
  const sent = await h.server.sendTransaction(tx);
  expect(sent.status).toBe("PENDING");
  h.devnet.closeLedger();
  return h.server.getTransaction(sent.hash);
}

describe("friendbot and accounts", () => {
  it("funds 10,000 XLM and the account reads back through getAccount and getLedgerEntries", async () => {
    const account = await h.server.getAccount(alice.publicKey());
    expect(BigInt(account.sequenceNumber()) % (1n << 32n)).toBe(0n);
    const entries = await h.server.getLedgerEntries(accountLedgerKey(bob.publicKey()));
    const entry = entries.entries[0];
    expect(entry?.val.type).toBe("account");
    if (entry?.val.type === "account") expect(entry.val.account.balance).toBe(10_000_0000000n);
    expect(entry?.lastModifiedLedgerSeq).toBeGreaterThan(1);
  });

  it("answers an already funded account like friendbot does", async () => {
    const res = await fetch(`${h.devnet.friendbotUrl}?addr=${alice.publicKey()}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toContain("createAccountAlreadyExist");
  });

  it("lists friendbot in getNetwork and works with the SDK's requestAirdrop", async () => {
    const network = await h.server.getNetwork();
    expect(network.friendbotUrl).toBe(h.devnet.friendbotUrl);
    expect(network.passphrase).toBe("Standalone Network ; February 2017");
    const carol = Keypair.random();
    const account = await h.server.requestAirdrop(carol.publicKey());
    expect(account.accountId()).toBe(carol.publicKey());
  });

  it("throws Account not found for an unknown account", async () => {
    await expect(h.server.getAccount(Keypair.random().publicKey())).rejects.toThrow(/Account not found/);
  });
});

describe("payments", () => {
  it("applies a payment with a text memo at the next ledger close", async () => {
    const before = h.devnet.chain.balanceOf(bob.publicKey()) ?? 0n;
    const tx = await payment(alice, bob.publicKey(), "12.5", { memo: Memo.text("invoice 7") });
    tx.sign(alice);
    const pending = await h.server.getTransaction(Buffer.from(tx.hash()).toString("hex"));
    expect(pending.status).toBe("NOT_FOUND");
    const got = await sendAndClose(tx);
    expect(got.status).toBe("SUCCESS");
    if (got.status !== "SUCCESS") return;
    expect(got.resultXdr.result.type).toBe("txSuccess");
    expect(got.resultXdr.feeCharged).toBe(100n);
    expect(got.envelopeXdr.type).toBe("envelopeTypeTx");
    expect(h.devnet.chain.balanceOf(bob.publicKey())).toBe(before + 125_000_000n);
    // CAP-67: the payment's transfer event carries the memo as to_muxed_id.
    const events = got.events.contractEventsXdr[0] ?? [];
    expect(events).toHaveLength(1);
    const body = events[0]?.body.value;
    expect(body?.topics.map((t) => scValToNative(t))).toEqual([
      "transfer",
      alice.publicKey(),
      bob.publicKey(),
      "native",
    ]);
    expect(scValToNative(body?.data as xdr.ScVal)).toEqual({
      amount: 125_000_000n,
      to_muxed_id: "invoice 7",
    });
  });

  it("carries every memo type", async () => {
    const memos = [
      Memo.id("42"),
      Memo.hash(Buffer.alloc(32, 7).toString("hex")),
      Memo.return(Buffer.alloc(32, 9).toString("hex")),
      Memo.none(),
    ];
    for (const memo of memos) {
      const tx = await payment(alice, bob.publicKey(), "1", { memo });
      tx.sign(alice);
      const got = await sendAndClose(tx);
      expect(got.status).toBe("SUCCESS");
      if (got.status === "SUCCESS")
        expect(got.envelopeXdr.type === "envelopeTypeTx" && got.envelopeXdr.v1.tx.memo.type).toBe(
          memo.toXDRObject().type,
        );
    }
  });
});

describe("fee bumps", () => {
  it("applies a fee-bumped payment, charging the fee source", async () => {
    const sponsor = Keypair.random();
    h.devnet.fund(sponsor.publicKey());
    const inner = await payment(alice, bob.publicKey(), "3");
    inner.sign(alice);
    const bump = TransactionBuilder.buildFeeBumpTransaction(
      sponsor,
      "200",
      inner,
      h.devnet.networkPassphrase,
    );
    bump.sign(sponsor);
    const aliceBefore = h.devnet.chain.balanceOf(alice.publicKey()) ?? 0n;
    const got = await sendAndClose(bump);
    expect(got.status).toBe("SUCCESS");
    if (got.status !== "SUCCESS") return;
    expect(got.feeBump).toBe(true);
    expect(got.resultXdr.result.type).toBe("txFeeBumpInnerSuccess");
    expect(h.devnet.chain.balanceOf(alice.publicKey())).toBe(aliceBefore - 30_000_000n);
    expect(h.devnet.chain.balanceOf(sponsor.publicKey())).toBe(10_000_0000000n - got.resultXdr.feeCharged);
  });
});

describe("failures", () => {
  function errorCode(sent: rpc.Api.SendTransactionResponse): string | undefined {
    return sent.errorResult?.result.type;
  }

  it("refuses a bad sequence number at submission with txBAD_SEQ", async () => {
    const account = await h.server.getAccount(alice.publicKey());
    const stale = new Account(alice.publicKey(), (BigInt(account.sequenceNumber()) + 5n).toString());
    const tx = await payment(alice, bob.publicKey(), "1", { account: stale });
    tx.sign(alice);
    const sent = await h.server.sendTransaction(tx);
    expect(sent.status).toBe("ERROR");
    expect(errorCode(sent)).toBe("txBadSeq");
    expect(sent.errorResult?.feeCharged).toBe(100n);
  });

  it("refuses a wrong signature with txBAD_AUTH", async () => {
    const tx = await payment(alice, bob.publicKey(), "1");
    tx.sign(bob);
    const sent = await h.server.sendTransaction(tx);
    expect(sent.status).toBe("ERROR");
    expect(errorCode(sent)).toBe("txBadAuth");
  });

  it("refuses a fee under the base fee with txINSUFFICIENT_FEE", async () => {
    const tx = await payment(alice, bob.publicKey(), "1", { fee: "99" });
    tx.sign(alice);
    const sent = await h.server.sendTransaction(tx);
    expect(errorCode(sent)).toBe("txInsufficientFee");
  });

  it("refuses an unknown source with txNO_ACCOUNT and an expired one with txTOO_LATE", async () => {
    const ghost = Keypair.random();
    const tx = await payment(ghost, bob.publicKey(), "1", { account: new Account(ghost.publicKey(), "1") });
    tx.sign(ghost);
    expect(errorCode(await h.server.sendTransaction(tx))).toBe("txNoAccount");
    const account = await h.server.getAccount(alice.publicKey());
    const late = new TransactionBuilder(account, {
      fee: "100",
      networkPassphrase: h.devnet.networkPassphrase,
      timebounds: { minTime: 0, maxTime: h.devnet.chain.latest.closeTime - 10 },
    })
      .addOperation(Operation.payment({ destination: bob.publicKey(), asset: Asset.native(), amount: "1" }))
      .build();
    late.sign(alice);
    expect(errorCode(await h.server.sendTransaction(late))).toBe("txTooLate");
  });

  it("fails an underfunded payment when applied (FAILED, opUNDERFUNDED) and still charges the fee", async () => {
    const before = h.devnet.chain.balanceOf(alice.publicKey()) ?? 0n;
    const tx = await payment(alice, bob.publicKey(), "1000000");
    tx.sign(alice);
    const got = await sendAndClose(tx);
    expect(got.status).toBe("FAILED");
    if (got.status !== "FAILED") return;
    expect(got.resultXdr.result.type).toBe("txFailed");
    const op = got.resultXdr.result.type === "txFailed" ? got.resultXdr.result.results[0] : undefined;
    expect(op?.type === "opInner" && op.tr.type === "payment" && op.tr.paymentResult.type).toBe(
      "paymentUnderfunded",
    );
    expect(h.devnet.chain.balanceOf(alice.publicKey())).toBe(before - 100n);
  });

  it("fails a payment to a missing account with opNO_DESTINATION", async () => {
    const tx = await payment(alice, Keypair.random().publicKey(), "5");
    tx.sign(alice);
    const got = await sendAndClose(tx);
    expect(got.status).toBe("FAILED");
    if (got.status !== "FAILED" || got.resultXdr.result.type !== "txFailed")
      throw new Error("expected txFailed");
    const op = got.resultXdr.result.results[0];
    expect(op?.type === "opInner" && op.tr.type === "payment" && op.tr.paymentResult.type).toBe(
      "paymentNoDestination",
    );
  });

  it("answers a second transaction of a pending source with TRY_AGAIN_LATER and a resend with DUPLICATE", async () => {
    const tx = await payment(alice, bob.publicKey(), "1");
    tx.sign(alice);
    expect((await h.server.sendTransaction(tx)).status).toBe("PENDING");
    expect((await h.server.sendTransaction(tx)).status).toBe("DUPLICATE");
    const other = await payment(alice, bob.publicKey(), "2", {
      account: new Account(alice.publicKey(), tx.sequence),
    });
    other.sign(alice);
    expect((await h.server.sendTransaction(other)).status).toBe("TRY_AGAIN_LATER");
    h.devnet.closeLedger();
    expect((await h.server.getTransaction(Buffer.from(tx.hash()).toString("hex"))).status).toBe("SUCCESS");
  });
});

describe("ledgers and history", () => {
  it("serves decodable, hash-chained ledgers", async () => {
    const latest = await h.server.getLatestLedger();
    expect(latest.headerXdr.ledgerSeq).toBe(latest.sequence);
    const ledgers = await h.server.getLedgers({
      startLedger: latest.sequence - 2,
      pagination: { limit: 3 },
    } as never);
    expect(ledgers.ledgers.map((l) => l.sequence)).toEqual([
      latest.sequence - 2,
      latest.sequence - 1,
      latest.sequence,
    ]);
    const [a, b] = ledgers.ledgers;
    expect(Buffer.from(b?.headerXdr.header.previousLedgerHash.value ?? []).toString("hex")).toBe(a?.hash);
    expect(ledgers.ledgers[2]?.hash).toBe(latest.id);
    expect(ledgers.ledgers[2]?.metadataXdr.type).toBe("v2");
    expect(ledgers.cursor).toBe(String(latest.sequence));
  });

  it("pages getTransactions with a TOID cursor", async () => {
    const first = await h.server.getTransactions({ startLedger: 1, pagination: { limit: 2 } } as never);
    expect(first.transactions).toHaveLength(2);
    const second = await h.server.getTransactions({
      pagination: { cursor: first.cursor, limit: 200 },
    } as never);
    const hashes = [...first.transactions, ...second.transactions].map((t) => t.txHash);
    expect(new Set(hashes).size).toBe(hashes.length);
    expect(hashes.length).toBeGreaterThan(5);
    expect(second.transactions[0]?.ledger).toBeGreaterThanOrEqual(first.transactions[1]?.ledger ?? 0);
  });

  it("reports health, version and fee stats", async () => {
    const health = await h.server.getHealth();
    expect(health.status).toBe("healthy");
    expect(health.latestLedger).toBe(h.devnet.chain.latest.sequence);
    expect((await h.server.getVersionInfo()).protocolVersion).toBe(23);
    const fees = await h.server.getFeeStats();
    expect([fees.inclusionFee.min, fees.inclusionFee.max, fees.inclusionFee.mode]).toEqual([
      "100",
      "200",
      "100",
    ]);
    expect(Number(fees.inclusionFee.transactionCount)).toBeGreaterThan(0);
  });
});

describe("JSON-RPC transport", () => {
  it("answers unknown methods, positional params and bad JSON with the JSON-RPC codes", async () => {
    expect((await h.call("getFoo")).error?.code).toBe(-32601);
    expect((await h.call("getHealth", [1])).error?.code).toBe(-32602);
    const bad = await fetch(h.devnet.rpcUrl, { method: "POST", body: "{not json" });
    expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const noVersion = await fetch(h.devnet.rpcUrl, {
      method: "POST",
      body: JSON.stringify({ id: 1, method: "getHealth" }),
    });
    expect(((await noVersion.json()) as { error: { code: number } }).error.code).toBe(-32600);
  });

  it("rejects the SDK's error object for an invalid transaction hash", async () => {
    await expect(h.server.getTransaction("abc")).rejects.toMatchObject({ code: -32602 });
    expect((await h.call("sendTransaction", { transaction: "AAAA" })).error).toEqual({
      code: -32602,
      message: "invalid_xdr",
    });
  });
});

itConformsToOpenRpc(
  () => h,
  [
    "getHealth",
    "getNetwork",
    "getVersionInfo",
    "getLatestLedger",
    "getLedgers",
    "getLedgerEntries",
    "sendTransaction",
    "getTransaction",
    "getTransactions",
    "getFeeStats",
  ],
);
