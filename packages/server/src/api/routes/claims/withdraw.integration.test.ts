// POST /console/register/withdraw/prepare (docs/api.md "Claim fee", **Chosen**) on the demo devnet: the claimant of
// `newco` withdraws with a prepared transaction its wallet signs, relayed by /records/submit; the allocator then
// holds the claim withdrawn and 80 % of the fee as the claimant's credit. Then every refusal.
import { demoKeypair, type NamingDevnet } from "@namereg/devnet";
import { AllocatorFns } from "@namereg/protocol";
import { type Keypair, type Transaction, TransactionBuilder } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import type { TestDatabase } from "../../../../test/fixtures/database.ts";
import { indexDemo } from "../../../../test/fixtures/demo.ts";
import { bearer, signIn } from "../../../../test/fixtures/wallet-auth.ts";
import { ChainClient } from "../../../chain/chain-client.ts";
import { type App, buildApp } from "../../app.ts";

const newco = demoKeypair("newco");
const contested = demoKeypair("contested");
const winner = demoKeypair("winner");

describe("a claimant withdraws its claim with a prepared transaction", () => {
  let devnet: NamingDevnet;
  let database: TestDatabase;
  let app: App;
  let chain: ChainClient;
  let allocator: string;
  let ids: { newco: string; contested: string; winner: string };

  beforeAll(async () => {
    ({ devnet, database } = await indexDemo("pglite"));
    allocator = devnet.contracts.allocator;
    const claims = devnet.demo?.claims;
    if (claims === undefined) throw new Error("the demo scenario has no claims");
    ids = { newco: String(claims.newco), contested: String(claims.contested), winner: String(claims.winner) };
    chain = new ChainClient(devnet.rpcUrl, devnet.networkPassphrase);
    app = await buildApp({
      config: testConfig({ ALLOCATOR_ID: allocator, NETWORK_PASSPHRASE: devnet.networkPassphrase }),
      db: database,
      redis: null,
      chainClient: chain,
    });
    devnet.setCloseInterval(100);
  });
  afterAll(async () => {
    await app?.close();
    await devnet?.stop();
    await database?.close();
  });

  const withdraw = async (id: unknown, as: Keypair | null) => {
    const response = await app.inject({
      method: "POST",
      url: "/console/register/withdraw/prepare",
      payload: { id },
      headers: as === null ? {} : bearer(await signIn(app, as)),
    });
    return { status: response.statusCode, body: response.json() };
  };

  it("prepares withdraw(id) for the claimant; signed and submitted, the fee is settled Withdrawn", async () => {
    const creditBefore = await chain.read(allocator, AllocatorFns.fee_credit, { payee: newco.publicKey() });
    const prepared = await withdraw(ids.newco, newco);
    expect(prepared).toEqual({
      status: 200,
      body: {
        ok: true,
        xdr: expect.any(String),
        claimant: newco.publicKey(),
        id: ids.newco,
        label: "newco",
        allocatorId: allocator,
        network: devnet.networkPassphrase,
      },
    });
    const tx = TransactionBuilder.fromXDR(prepared.body.xdr, devnet.networkPassphrase) as Transaction;
    expect(tx.source).toBe(newco.publicKey());
    const [op] = tx.operations;
    if (op?.type !== "invokeHostFunction" || op.func.type !== "hostFunctionTypeInvokeContract") {
      throw new Error("not a contract call");
    }
    expect(op.func.invokeContract.functionName.toString()).toBe("withdraw");
    expect(AllocatorFns.withdraw.decodeArgs(op.func.invokeContract.args)).toEqual({ id: BigInt(ids.newco) });
    tx.sign(newco);
    const submitted = await app.inject({
      method: "POST",
      url: "/records/submit",
      payload: { signedXdr: tx.toXDR() },
    });
    expect([submitted.statusCode, submitted.json().ok]).toEqual([200, true]);

    expect((await chain.read(allocator, AllocatorFns.claim, { id: BigInt(ids.newco) }))?.state).toBe(
      "withdrawn",
    );
    const fee = devnet.demo?.feeStroops ?? 0n;
    expect(await chain.read(allocator, AllocatorFns.fee_credit, { payee: newco.publicKey() })).toBe(
      creditBefore + (fee * 8000n) / 10_000n,
    );
  });

  it("answers each listed error code for a crafted bad request", async () => {
    const cases = [
      [
        ids.contested,
        newco,
        403,
        { error: "not_claimant", id: ids.contested, claimant: contested.publicKey() },
      ],
      [ids.newco, newco, 409, { error: "claim_not_open", id: ids.newco, state: "withdrawn" }],
      [ids.winner, winner, 409, { error: "claim_not_open", id: ids.winner, state: "awarded" }],
      ["999999", newco, 404, { error: "not_found", id: "999999" }],
      ["seven", newco, 400, { error: "invalid_request", detail: "id: must be a claim id: a decimal string" }],
      [
        ids.contested,
        null,
        401,
        { error: "unauthorized", detail: "Authorization: a Bearer session token is required" },
      ],
    ] as const;
    for (const [id, as, status, body] of cases) {
      const got = await withdraw(id, as);
      expect({ id, ...got }).toEqual({ id, status, body });
    }
  });
});
