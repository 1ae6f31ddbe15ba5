// What the relays answer over the shared send loop (send-by-hash.ts), with a stub RPC: the same outcomes and the
// same 503 details as before the loop was shared.
import { Account, Asset, Keypair, Networks, Operation, rpc, TransactionBuilder } from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { ApiError } from "../errors.ts";
import { submitSigned } from "./submit.ts";

const source = Keypair.random();
const tx = new TransactionBuilder(new Account(source.publicKey(), "9"), {
  fee: "100",
  networkPassphrase: Networks.TESTNET,
})
  .addOperation(
    Operation.payment({ destination: Keypair.random().publicKey(), asset: Asset.native(), amount: "1" }),
  )
  .setTimeout(0)
  .build();
tx.sign(source);
const XDR = tx.toXDR();
const HASH = Buffer.from(tx.hash()).toString("hex");

const notFound = { status: rpc.Api.GetTransactionStatus.NOT_FOUND };

function stub(o: { get: () => Promise<unknown>; send?: () => Promise<unknown> }): {
  server: rpc.Server;
  sends: () => number;
} {
  let sends = 0;
  const server = {
    getTransaction: o.get,
    sendTransaction: async () => {
      sends++;
      return (o.send ?? (async () => ({ status: "PENDING", hash: HASH })))();
    },
  } as unknown as rpc.Server;
  return { server, sends: () => sends };
}

const submit = (server: rpc.Server) =>
  submitSigned(server, Networks.TESTNET, XDR, { attempts: 3, intervalMs: 1 }).catch((err: unknown) => err);

describe("submitSigned over send-by-hash", () => {
  it("answers success without sending when the chain already has the transaction", async () => {
    const s = stub({ get: async () => ({ status: rpc.Api.GetTransactionStatus.SUCCESS, ledger: 12 }) });
    expect(await submit(s.server)).toEqual({ status: "success", txHash: HASH, ledger: 12 });
    expect(s.sends()).toBe(0);
  });

  it("answers pending with the hash when nothing is final within the polls", async () => {
    const s = stub({ get: async () => notFound });
    expect(await submit(s.server)).toEqual({ status: "pending", txHash: HASH });
    expect(s.sends()).toBe(1);
  });

  it("is 503 chain_unavailable, without a hash and without sending, when the chain cannot be asked first", async () => {
    const s = stub({
      get: async () => {
        throw new Error("ECONNREFUSED");
      },
    });
    const err = await submit(s.server);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).statusCode).toBe(503);
    expect((err as ApiError).body()).toEqual({
      error: "chain_unavailable",
      detail: "the chain could not be reached",
    });
    expect(s.sends()).toBe(0);
  });

  it("is 503 chain_unavailable naming the hash when the send goes unanswered or is to be retried later", async () => {
    const unanswered = stub({
      get: async () => notFound,
      send: async () => {
        throw new Error("socket hang up");
      },
    });
    expect(((await submit(unanswered.server)) as ApiError).body()).toEqual({
      error: "chain_unavailable",
      detail:
        "the chain did not answer the submission; submit the same signed transaction again to learn its outcome",
      txHash: HASH,
    });
    const later = stub({
      get: async () => notFound,
      send: async () => ({ status: "TRY_AGAIN_LATER", hash: HASH }),
    });
    expect(((await submit(later.server)) as ApiError).body()).toEqual({
      error: "chain_unavailable",
      detail: "the network asked to try again later; submit the same signed transaction again",
      txHash: HASH,
    });
  });
});
