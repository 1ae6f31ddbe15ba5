import {
  Account,
  Asset,
  type FeeBumpTransaction,
  Keypair,
  Networks,
  Operation,
  rpc,
  type Transaction,
  TransactionBuilder,
} from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { ChainUnanswered, hashOf, type SendByHashRpc, sendByHash } from "./send-by-hash.ts";

const source = Keypair.random();
const tx = new TransactionBuilder(new Account(source.publicKey(), "41"), {
  fee: "100",
  networkPassphrase: Networks.TESTNET,
})
  .addOperation(
    Operation.payment({ destination: Keypair.random().publicKey(), asset: Asset.native(), amount: "1" }),
  )
  .setTimeout(0)
  .build();
tx.sign(source);
const HASH = hashOf(tx);

type Answer = rpc.Api.GetTransactionResponse | Error;

const notFound = { status: rpc.Api.GetTransactionStatus.NOT_FOUND } as rpc.Api.GetTransactionResponse;
const success = {
  status: rpc.Api.GetTransactionStatus.SUCCESS,
  ledger: 77,
} as rpc.Api.GetTransactionResponse;

/** An RPC that answers getTransaction from a script (its last answer repeats) and records what it was asked. */
function stubRpc(answers: Answer[], sendStatus: rpc.Api.SendTransactionStatus = "PENDING") {
  const asked: string[] = [];
  const sent: string[] = [];
  const server: SendByHashRpc = {
    async getTransaction(hash: string) {
      asked.push(hash);
      const answer = answers.length > 1 ? answers.shift() : answers[0];
      if (answer === undefined) throw new Error("no scripted answer");
      if (answer instanceof Error) throw answer;
      return answer;
    },
    async sendTransaction(sentTx: Transaction | FeeBumpTransaction) {
      sent.push(hashOf(sentTx));
      return { status: sendStatus, hash: hashOf(sentTx), latestLedger: 1, latestLedgerCloseTime: 0 };
    },
  };
  return { server, asked, sent };
}

/** A clock that moves only when a wait passes, by `stepMs` each time. */
function steppedClock(stepMs: number) {
  let now = 0;
  const wait = async () => {
    now += stepMs;
  };
  return { clock: () => now, wait, waits: () => now / stepMs };
}

describe("sendByHash", () => {
  it("does not send a transaction the chain already knows", async () => {
    const { server, asked, sent } = stubRpc([success]);
    const outcome = await sendByHash(server, tx, { attempts: 5, budgetMs: 1000, wait: async () => {} });
    expect(outcome).toEqual({ status: "final", txHash: HASH, response: success });
    expect(asked).toEqual([HASH]);
    expect(sent).toEqual([]);
  });

  it("sends an unknown transaction once and rides out a failed poll to its success", async () => {
    const { server, asked, sent } = stubRpc([notFound, new Error("socket hang up"), success]);
    const time = steppedClock(100);
    const outcome = await sendByHash(server, tx, {
      attempts: 5,
      budgetMs: 1000,
      wait: time.wait,
      clock: time.clock,
    });
    expect(outcome).toEqual({ status: "final", txHash: HASH, response: success });
    expect(sent).toEqual([HASH]);
    expect(asked).toEqual([HASH, HASH, HASH]);
  });

  it("answers pending with the hash when nothing is final within the wall-time budget", async () => {
    const { server, asked, sent } = stubRpc([notFound]);
    const time = steppedClock(400);
    const outcome = await sendByHash(server, tx, {
      attempts: 100,
      budgetMs: 1000,
      wait: time.wait,
      clock: time.clock,
    });
    expect(outcome).toEqual({ status: "pending", txHash: HASH });
    expect(sent).toEqual([HASH]);
    // Polls at 400, 800 and 1200 ms of the clock: the budget, not the 100 attempts, ended them.
    expect(time.waits()).toBe(3);
    expect(asked).toHaveLength(1 + 3);
  });

  it("reports a refusal and a try-again-later without polling", async () => {
    const refused = stubRpc([notFound], "ERROR");
    expect(
      await sendByHash(refused.server, tx, { attempts: 5, budgetMs: 1000, wait: async () => {} }),
    ).toMatchObject({ status: "refused", txHash: HASH });
    expect(refused.asked).toEqual([HASH]);
    const later = stubRpc([notFound], "TRY_AGAIN_LATER");
    expect(await sendByHash(later.server, tx, { attempts: 5, budgetMs: 1000, wait: async () => {} })).toEqual(
      { status: "try_again_later", txHash: HASH },
    );
    expect(later.asked).toEqual([HASH]);
  });

  it("sends nothing when the chain cannot be asked first", async () => {
    const { server, sent } = stubRpc([new Error("ECONNREFUSED")]);
    const failure = await sendByHash(server, tx, { attempts: 5, budgetMs: 1000, wait: async () => {} }).catch(
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(ChainUnanswered);
    expect(failure).toMatchObject({ stage: "check", txHash: HASH });
    expect(sent).toEqual([]);
  });
});
