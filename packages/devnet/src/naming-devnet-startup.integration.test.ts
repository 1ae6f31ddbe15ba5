// Requests arriving while the demo is being built must neither kill the devnet nor interleave with the build:
// friendbot and payments close ledgers at wall-clock time, the demo closes ledgers dated in the past.
import { createServer } from "node:net";
import { Asset, Keypair, Networks, Operation, rpc, TransactionBuilder } from "@stellar/stellar-sdk";
import { afterAll, describe, expect, it } from "vitest";
import { type NamingDevnet, startNamingDevnet } from "./naming-devnet.ts";

/** A port free right now (the devnet must listen on a port known before it starts, so requests can race it). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("naming devnet start-up under load", () => {
  let devnet: NamingDevnet | undefined;
  afterAll(async () => {
    await devnet?.stop();
  });

  it("builds the demo while friendbot, payments and reads hammer its port, then serves them all", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = new rpc.Server(base, { allowHttp: true });
    let building = true;
    const answered: number[] = [];
    const hammer = async () => {
      while (building) {
        const kp = Keypair.random();
        try {
          const funded = await fetch(`${base}/friendbot?addr=${kp.publicKey()}`);
          answered.push(funded.status);
          answered.push((await server.getLatestLedger()).sequence > 0 ? 200 : 0);
          if (funded.status === 200) {
            const account = await server.getAccount(kp.publicKey());
            const tx = new TransactionBuilder(account, { fee: "100", networkPassphrase: Networks.STANDALONE })
              .addOperation(
                Operation.payment({
                  destination: Keypair.random().publicKey(),
                  asset: Asset.native(),
                  amount: "1",
                }),
              )
              .setTimeout(60)
              .build();
            tx.sign(kp);
            answered.push((await server.sendTransaction(tx)).status === "ERROR" ? 500 : 200);
          }
        } catch {
          // Connection refused until the port opens: the point is to be there the moment it does.
          await new Promise((r) => setTimeout(r, 2));
        }
      }
    };
    const hammers = [hammer(), hammer(), hammer()];
    try {
      devnet = await startNamingDevnet({ scenario: "demo", port, closeIntervalMs: 100 });
      // Keep hammering the open devnet for a moment: it keeps closing ledgers and answering.
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      building = false;
      await Promise.all(hammers);
    }
    expect(devnet.demo?.names).toBeDefined();
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.filter((s) => s !== 200)).toEqual([]);
    // The chain's clock never ran backwards.
    const chain = devnet.chain;
    const closes: number[] = [];
    for (let seq = chain.oldest.sequence; seq <= chain.latest.sequence; seq++) {
      closes.push(chain.ledger(seq)?.closeTime ?? -1);
    }
    expect(closes).toEqual([...closes].sort((a, b) => a - b));
    expect(closes).not.toContain(-1);
    // The RPC serves the chain's newest ledger: ledgers still close every 100 ms, so one may close while it is asked.
    const before = devnet.chain.latest.sequence;
    const served = (await server.getLatestLedger()).sequence;
    expect(served).toBeGreaterThanOrEqual(before);
    expect(served).toBeLessThanOrEqual(devnet.chain.latest.sequence);
  });
});
