// The record actions of POST /records/prepare beside the network address (docs/api.md "Prepare and submit",
// **Chosen**) against the demo devnet: each prepared, reviewed as a wallet would (contract, function, arguments,
// source), signed, submitted through /records/submit and read back from the chain; then the refusals.
import { demoKeypair, type NamingDevnet, Wallet } from "@namereg/devnet";
import {
  type ArgSpec,
  type FnDef,
  LookupFns,
  nameNode,
  PrimaryFns,
  RegistrarFns,
  ResolverFns,
  subnameNode,
} from "@namereg/protocol";
import { Address, type Keypair, type Transaction, TransactionBuilder } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import type { TestDatabase } from "../../../../test/fixtures/database.ts";
import { indexDemo } from "../../../../test/fixtures/demo.ts";
import { ChainClient } from "../../../chain/chain-client.ts";
import { type App, buildApp } from "../../app.ts";

const alice = demoKeypair("alice");
const bob = demoKeypair("bob");
const carol = demoKeypair("carol");

describe("record actions: prepare, sign, submit", () => {
  let devnet: NamingDevnet;
  let database: TestDatabase;
  let app: App;
  let chain: ChainClient;
  let registrar: string;
  let resolver: string;
  let primary: string;
  let lookup: string;

  beforeAll(async () => {
    ({ devnet, database } = await indexDemo("pglite"));
    registrar = devnet.demo?.namespaces.acme.registrar ?? "";
    resolver = devnet.demo?.namespaces.acme.resolver ?? "";
    ({ primary, lookup } = devnet.contracts);
    chain = new ChainClient(devnet.rpcUrl, devnet.networkPassphrase);
    app = await buildApp({
      config: testConfig({ PRIMARY_ID: primary, LOOKUP_ID: lookup }),
      db: database,
      redis: null,
      chainClient: chain,
    });
    // From here ledgers close on their own, as on a real network, so submissions become final while polled.
    devnet.setCloseInterval(100);
  });
  afterAll(async () => {
    await app?.close();
    await devnet?.stop();
    await database?.close();
  });

  const post = async (url: string, payload: object) => {
    const response = await app.inject({ method: "POST", url, payload });
    return { status: response.statusCode, body: response.json() };
  };

  /** What a wallet checks before signing: one invocation of `fn` on `contract` by `source`, and its arguments. */
  function review<A extends ArgSpec, R>(xdr: string, contract: string, fn: FnDef<A, R>, source: string) {
    const tx = TransactionBuilder.fromXDR(xdr, devnet.networkPassphrase) as Transaction;
    expect(tx.source).toBe(source);
    expect(tx.signatures).toHaveLength(0);
    expect(tx.operations).toHaveLength(1);
    const op = tx.operations[0];
    if (op?.type !== "invokeHostFunction" || op.func.type !== "hostFunctionTypeInvokeContract") {
      throw new Error(`not a contract invocation: ${op?.type}`);
    }
    const call = op.func.invokeContract;
    expect(Address.fromScAddress(call.contractAddress).toString()).toBe(contract);
    expect(call.functionName.toString()).toBe(fn.name);
    return { tx, args: fn.decodeArgs(call.args) };
  }

  /** Prepares `body`, checks the answer and the call, signs as `signer`, submits, expects 200. */
  async function change<A extends ArgSpec, R>(
    body: object,
    expected: {
      action: string;
      contract: string;
      fn: FnDef<A, R>;
      signer: Keypair;
      holder: Keypair;
      name: string;
    },
  ) {
    const prepared = await post("/records/prepare", body);
    expect(prepared).toEqual({
      status: 200,
      body: {
        ok: true,
        xdr: expect.any(String),
        name: expected.name,
        action: expected.action,
        holder: expected.holder.publicKey(),
        signer: expected.signer.publicKey(),
        namespace: "acme",
        contractId: expected.contract,
        function: expected.fn.name,
        network: devnet.networkPassphrase,
      },
    });
    const { tx, args } = review(
      prepared.body.xdr,
      expected.contract,
      expected.fn,
      expected.signer.publicKey(),
    );
    tx.sign(expected.signer);
    const submitted = await post("/records/submit", { signedXdr: tx.toXDR() });
    expect(submitted).toEqual({
      status: 200,
      body: { ok: true, txHash: Buffer.from(tx.hash()).toString("hex"), ledger: expect.any(Number) },
    });
    return args;
  }

  const aliceNode = nameNode("alice", "acme");
  const bobNode = nameNode("bob", "acme");

  it("sets and removes a text record as the holder", async () => {
    const args = await change(
      { name: "alice.acme", text: { key: "bio", value: "builds wallets" } },
      {
        action: "text",
        contract: resolver,
        fn: ResolverFns.set_text,
        signer: alice,
        holder: alice,
        name: "alice.acme",
      },
    );
    expect(args).toEqual({ node: aliceNode, key: "bio", value: "builds wallets" });
    expect(await chain.read(resolver, ResolverFns.text, { node: aliceNode, key: "bio" })).toBe(
      "builds wallets",
    );

    await change(
      { name: "alice.acme", text: { key: "bio", value: null } },
      {
        action: "text",
        contract: resolver,
        fn: ResolverFns.set_text,
        signer: alice,
        holder: alice,
        name: "alice.acme",
      },
    );
    expect(await chain.read(resolver, ResolverFns.text, { node: aliceNode, key: "bio" })).toBeNull();
  });

  it("sets a subname's text record, signed by the parent's holder", async () => {
    const node = subnameNode("pay", "alice", "acme");
    const args = await change(
      { name: "pay.alice.acme", text: { key: "url", value: "https://pay.example" } },
      {
        action: "text",
        contract: resolver,
        fn: ResolverFns.set_text,
        signer: alice,
        holder: alice,
        name: "pay.alice.acme",
      },
    );
    expect(args.node).toBe(node);
    expect(await chain.read(resolver, ResolverFns.text, { node, key: "url" })).toBe("https://pay.example");
  });

  it("sets bob's payment instruction, then his display and primary names signed by that address", async () => {
    const base = { contract: resolver, holder: bob, name: "bob.acme" };
    const payment = await change(
      { name: "bob.acme", payment: { address: bob.publicKey(), memo: "bob-1" } },
      { ...base, action: "payment", fn: ResolverFns.set_payment, signer: bob },
    );
    expect(payment).toEqual({ node: bobNode, address: bob.publicKey(), memo: "bob-1" });
    expect(await chain.read(resolver, ResolverFns.payment, { node: bobNode })).toEqual({
      address: bob.publicKey(),
      memo: "bob-1",
    });

    const display = await change(
      { name: "bob.acme", displayName: true },
      { ...base, action: "displayName", fn: ResolverFns.set_display_name, signer: bob },
    );
    expect(display).toEqual({ address: bob.publicKey(), node: bobNode });
    expect(await chain.read(resolver, ResolverFns.display_name, { address: bob.publicKey() })).toBe(bobNode);

    const primaryArgs = await change(
      { name: "bob.acme", primary: true },
      { ...base, contract: primary, action: "primary", fn: PrimaryFns.set_primary, signer: bob },
    );
    expect(primaryArgs).toEqual({ address: bob.publicKey(), name: "bob.acme" });
    expect(await chain.read(primary, PrimaryFns.primary, { address: bob.publicKey() })).toBe("bob.acme");

    // Read back through the API, which judges both flags for the pay-to address.
    const records = await app.inject({ url: "/v1/records/acme/bob" });
    expect(records.json()).toMatchObject({ address: bob.publicKey(), displayName: true, primaryName: true });
  });

  it("sets a name's built-in address on its registrar", async () => {
    const args = await change(
      { name: "bob.acme", address: carol.publicKey() },
      {
        action: "address",
        contract: registrar,
        fn: RegistrarFns.set_address,
        signer: bob,
        holder: bob,
        name: "bob.acme",
      },
    );
    expect(args).toEqual({ label: "bob", address: carol.publicKey() });
    expect((await chain.read(registrar, RegistrarFns.name, { label: "bob" }))?.address).toBe(
      carol.publicKey(),
    );
    // The payment instruction set above still wins in lookup (docs/contracts.md "Lookup").
    expect((await chain.read(lookup, LookupFns.lookup, { name: "bob.acme" }))?.address).toBe(bob.publicKey());
  });

  it("answers each listed error code for a crafted bad request", async () => {
    // A name held by a contract: issued by the acme owner to the lookup contract's address.
    const owner = new Wallet({ rpcUrl: devnet.rpcUrl, networkPassphrase: devnet.networkPassphrase });
    await owner.invoke(demoKeypair("acme"), registrar, RegistrarFns.issue, {
      label: "safe",
      holder: lookup,
      address: lookup,
      expiresAt: 0n,
    });
    const one = "must hold exactly one of chainAddress, text, payment, address, displayName, primary";
    const cases = [
      [{ name: "alice.acme" }, 400, { error: "invalid_request", detail: `body: ${one}` }],
      [
        { name: "alice.acme", displayName: true, primary: true },
        400,
        { error: "invalid_request", detail: `body: ${one} (got displayName, primary)` },
      ],
      [
        { name: "alice.acme", text: { key: "no spaces", value: "x" } },
        400,
        { error: "invalid_request", detail: "text.key: must be a symbol: 1-32 of A-Z, a-z, 0-9 and '_'" },
      ],
      [
        { name: "alice.acme", text: { key: "bio", value: "x".repeat(1025) } },
        400,
        { error: "invalid_request", detail: expect.stringMatching(/^text\.value: /) },
      ],
      [
        { name: "alice.acme", payment: { address: alice.publicKey(), memo: "m".repeat(29) } },
        400,
        { error: "invalid_request", detail: "payment.memo: must be at most 28 bytes (a Stellar text memo)" },
      ],
      [
        { name: "alice.acme", address: "GNOTANADDRESS" },
        400,
        {
          error: "invalid_request",
          detail: "address: must be a Stellar account (G…) or contract (C…) address",
        },
      ],
      [
        { name: "pay.alice.acme", address: alice.publicKey() },
        400,
        {
          error: "invalid_name",
          detail:
            "name: address needs label.namespace; a subname's address is set when it is created (POST /subnames/prepare)",
        },
      ],
      [
        { name: "acme", text: { key: "bio", value: "x" } },
        400,
        {
          error: "invalid_name",
          detail: "name: must be label.namespace or child.label.namespace (A-Z is lower-cased)",
        },
      ],
      [
        { name: "nobody.acme", text: { key: "bio", value: "x" } },
        404,
        { error: "name_not_found", name: "nobody.acme" },
      ],
      [{ name: "old.acme", primary: true }, 404, { error: "name_expired", name: "old.acme" }],
      [{ name: "alice.nowhere", primary: true }, 404, { error: "namespace_not_found", namespace: "nowhere" }],
      [
        { name: "carol.plain", text: { key: "bio", value: "x" } },
        409,
        { error: "no_resolver", namespace: "plain" },
      ],
      [
        { name: "safe.acme", text: { key: "bio", value: "x" } },
        409,
        { error: "contract_holder_requires_adapter", name: "safe.acme", holder: lookup },
      ],
      [
        { name: "safe.acme", primary: true },
        409,
        { error: "contract_holder_requires_adapter", name: "safe.acme", address: lookup },
      ],
      // A subname has no payment instruction or address record in the resolver: nobody may name it for display.
      [
        { name: "pay.alice.acme", displayName: true },
        409,
        { error: "no_payment_address", name: "pay.alice.acme" },
      ],
    ] as const;
    for (const [payload, status, body] of cases) {
      const got = await post("/records/prepare", payload);
      expect({ payload, ...got }).toEqual({ payload, status, body });
    }
  });

  it("relays the new kinds only to the contract role they belong to, and no payment but its own", async () => {
    const prepared = await post("/records/prepare", { name: "alice.acme", text: { key: "k", value: "v" } });
    const { tx } = review(prepared.body.xdr, resolver, ResolverFns.set_text, alice.publicKey());
    tx.sign(bob);
    // Signed by the wrong key: sent, refused by the network for its signatures, and nothing changed.
    expect(await post("/records/submit", { signedXdr: tx.toXDR() })).toMatchObject({
      status: 409,
      body: { error: "transaction_failed", resultCode: "txBadAuth", signer: alice.publicKey() },
    });
    expect(await chain.read(resolver, ResolverFns.text, { node: aliceNode, key: "k" })).toBeNull();
  });
});
