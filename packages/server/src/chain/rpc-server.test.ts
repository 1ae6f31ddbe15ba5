// A provider that holds requests open must not hold the API's chain calls with it: every request of the SDK's
// RPC connection has a deadline (rpc-server.ts), and submission's polling budget is wall time.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { LookupFns } from "@namereg/protocol";
import { Account, Keypair, Networks, Operation, StrKey, TransactionBuilder } from "@stellar/stellar-sdk";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../errors.ts";
import { ChainClient } from "./chain-client.ts";
import { ChainUnavailableError } from "./contract-reader.ts";

const PASSPHRASE = Networks.STANDALONE;
const CONTRACT = StrKey.encodeContract(Buffer.alloc(32, 7));
const servers: Server[] = [];

/** A JSON-RPC endpoint answering by method name; `null` holds the request open until the test ends. */
async function provider(answer: (method: string) => unknown): Promise<{ url: string; calls: string[] }> {
  const calls: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      calls.push(method);
      const result = answer(method);
      if (result === null) return;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id, result }));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls };
}

/**
 * The deadline a chain client gets in a test where some requests are answered: 300 ms, or five times the slowest
 * of three answered round trips to a provider on this machine when the machine is that slow (a loaded one took
 * longer than 300 ms to answer). The answered requests must never hit it; the held ones always do, whatever it is.
 */
async function measuredDeadline(): Promise<number> {
  const { url } = await provider(() => ({ status: "healthy", ...LEDGER }));
  let slowest = 0;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const body = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "getHealth" });
    await (await fetch(url, { method: "POST", body })).text();
    slowest = Math.max(slowest, performance.now() - started);
  }
  return Math.max(300, Math.ceil(5 * slowest));
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function signedPayment(): string {
  const source = Keypair.random();
  const tx = new TransactionBuilder(new Account(source.publicKey(), "1"), {
    fee: "100",
    networkPassphrase: PASSPHRASE,
  })
    .addOperation(Operation.bumpSequence({ bumpTo: "2" }))
    .setTimeout(60)
    .build();
  tx.sign(source);
  return tx.toXDR();
}

const LEDGER = {
  latestLedger: 10,
  latestLedgerCloseTime: "1700000000",
  oldestLedger: 1,
  oldestLedgerCloseTime: "1699990000",
};

describe("RPC requests with a deadline", () => {
  it("gives up a live read, a prepare and a submission the provider never answers", {
    timeout: 10_000,
  }, async () => {
    const { url, calls } = await provider(() => null);
    const chain = new ChainClient(url, PASSPHRASE, { timeoutMs: 300 });
    await expect(chain.read(CONTRACT, LookupFns.lookup, { name: "alice.acme" })).rejects.toBeInstanceOf(
      ChainUnavailableError,
    );
    const prepare = chain.prepare(Keypair.random().publicKey(), CONTRACT, LookupFns.lookup, {
      name: "alice.acme",
    });
    await expect(prepare).rejects.toMatchObject({ code: "chain_unavailable" });
    const submit = chain.submit(signedPayment());
    await expect(submit).rejects.toBeInstanceOf(ApiError);
    await expect(submit).rejects.toMatchObject({ code: "chain_unavailable" });
    expect(calls).toEqual(["simulateTransaction", "getLedgerEntries", "getTransaction"]);
  });

  it("answers pending within the polling budget when the polls are held open", {
    timeout: 10_000,
  }, async () => {
    let asked = 0;
    const { url, calls } = await provider((method) => {
      if (method === "sendTransaction") return { status: "PENDING", hash: "00".repeat(32), ...LEDGER };
      // The check before sending is answered; every poll after it is held open.
      return asked++ === 0 ? { status: "NOT_FOUND", ...LEDGER } : null;
    });
    const chain = new ChainClient(url, PASSPHRASE, { timeoutMs: await measuredDeadline() });
    const outcome = await chain.submit(signedPayment(), { attempts: 5, intervalMs: 20 });
    expect(outcome).toMatchObject({ status: "pending" });
    // One held poll used up the 100 ms budget; without the wall-time bound all five would have been made.
    expect(calls).toEqual(["getTransaction", "sendTransaction", "getTransaction"]);
  });

  it("says the same envelope is the safe retry when the submission itself goes unanswered", {
    timeout: 10_000,
  }, async () => {
    const { url } = await provider((method) =>
      method === "getTransaction" ? { status: "NOT_FOUND", ...LEDGER } : null,
    );
    const chain = new ChainClient(url, PASSPHRASE, { timeoutMs: await measuredDeadline() });
    const failure = await chain.submit(signedPayment()).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).body()).toMatchObject({
      error: "chain_unavailable",
      detail: expect.stringContaining("submit the same signed transaction again"),
      txHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });
});
