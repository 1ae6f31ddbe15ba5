// prepare → sign → submit against the demo devnet, acting as a wallet with nothing but the Stellar SDK: the
// prepared XDR is checked (contract, function, arguments, source, network) before it is signed (docs/api.md "Prepare and submit (not under /v1)").
import { demoKeypair, type NamingDevnet, STANDALONE_PASSPHRASE, Wallet } from "@namereg/devnet";
import {
  type ArgSpec,
  canonicalChainAddress,
  type FnDef,
  nameNode,
  RegistrarFns,
  ResolverFns,
} from "@namereg/protocol";
import {
  Address,
  Asset,
  type Keypair,
  Memo,
  Operation,
  rpc,
  StrKey,
  type Transaction,
  TransactionBuilder,
  type xdr,
} from "@stellar/stellar-sdk";
import Fastify from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import type { TestDatabase } from "../../../../test/fixtures/database.ts";
import { indexDemo } from "../../../../test/fixtures/demo.ts";
import { ChainClient } from "../../../chain/chain-client.ts";
import { type App, buildApp } from "../../app.ts";
import { installErrorHandling } from "../../plugins/errors.ts";
import { holderTxRoutes } from "./holder-tx.ts";

const alice = demoKeypair("alice");
const OTHER_NETWORK = "Test SDF Network ; September 2015";
const ETH_LOWER = "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359";

describe("holder transactions: prepare, sign, submit", () => {
  let devnet: NamingDevnet;
  let database: TestDatabase;
  let app: App;
  let chainClient: ChainClient;
  let server: rpc.Server;
  let registrar: string;
  let resolver: string;

  beforeAll(async () => {
    ({ devnet, database } = await indexDemo("pglite"));
    registrar = devnet.demo?.namespaces.acme.registrar ?? "";
    resolver = devnet.demo?.namespaces.acme.resolver ?? "";
    chainClient = new ChainClient(devnet.rpcUrl, devnet.networkPassphrase);
    server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
    app = await buildApp({ config: testConfig(), db: database, redis: null, chainClient });
    // From here ledgers close on their own, as on a real network, so submissions become final while polled.
    devnet.setCloseInterval(100);
  });
  afterAll(async () => {
    await app?.close();
    await devnet?.stop();
    await database?.close();
  });

  const post = async (url: string, payload: object, target: { inject: App["inject"] } = app) => {
    const response = await target.inject({ method: "POST", url, payload });
    return { status: response.statusCode, body: response.json() };
  };
  const get = async (url: string) => (await app.inject({ url })).json();

  /** What a wallet checks before signing: one invocation of `fn` on `contract`, its arguments, source, network. */
  function review<A extends ArgSpec, R>(xdr: string, contract: string, fn: FnDef<A, R>, source: string) {
    const tx = TransactionBuilder.fromXDR(xdr, devnet.networkPassphrase) as Transaction;
    expect(tx.networkPassphrase).toBe(devnet.networkPassphrase);
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

  const sign = (tx: Transaction, signer: Keypair = alice) => {
    tx.sign(signer);
    return tx.toXDR();
  };
  const hashOf = (tx: Transaction) => Buffer.from(tx.hash()).toString("hex");

  async function prepareSubname(body: object) {
    const prepared = await post("/subnames/prepare", body);
    expect(prepared.status).toBe(200);
    return prepared.body as { xdr: string };
  }

  it("creates a subname the holder signed, and a resubmission is the same transaction", async () => {
    const prepared = await post("/subnames/prepare", {
      name: "shop.alice.acme",
      action: "create",
      parentGeneration: "1",
      generation: null,
      address: alice.publicKey(),
    });
    expect(prepared).toEqual({
      status: 200,
      body: {
        ok: true,
        xdr: expect.any(String),
        name: "shop.alice.acme",
        holder: alice.publicKey(),
        signer: alice.publicKey(),
        registrarId: registrar,
        namespace: "acme",
        network: devnet.networkPassphrase,
      },
    });
    const { tx, args } = review(prepared.body.xdr, registrar, RegistrarFns.create_subname, alice.publicKey());
    expect(args).toEqual({
      label: "alice",
      child: "shop",
      parentGeneration: 1n,
      generation: null,
      address: alice.publicKey(),
    });
    const signedXdr = sign(tx);

    const submitted = await post("/records/submit", { signedXdr });
    expect(submitted).toEqual({
      status: 200,
      body: { ok: true, txHash: hashOf(tx), ledger: expect.any(Number) },
    });
    expect((await get("/v1/subnames/acme/alice/shop")).record).toMatchObject({
      exists: true,
      active: true,
      generation: "1",
      parentGeneration: "1",
    });

    const sequence = (await server.getAccount(alice.publicKey())).sequenceNumber();
    expect(await post("/records/submit", { signedXdr })).toEqual(submitted);
    expect((await server.getAccount(alice.publicKey())).sequenceNumber()).toBe(sequence);
  });

  it("removes the child with its current generation and recreates it with the previous one", async () => {
    const removal = await prepareSubname({
      name: "shop.alice.acme",
      action: "remove",
      parentGeneration: "1",
      generation: "1",
    });
    const removed = review(removal.xdr, registrar, RegistrarFns.remove_subname, alice.publicKey());
    expect(removed.args).toEqual({ label: "alice", child: "shop", parentGeneration: 1n, generation: 1n });
    expect((await post("/records/submit", { signedXdr: sign(removed.tx) })).status).toBe(200);
    expect((await get("/v1/subnames/acme/alice/shop")).record).toMatchObject({
      exists: false,
      active: false,
    });

    const recreation = await prepareSubname({
      name: "shop.alice.acme",
      action: "create",
      parentGeneration: "1",
      generation: "1",
      address: alice.publicKey(),
    });
    const recreated = review(recreation.xdr, registrar, RegistrarFns.create_subname, alice.publicKey());
    expect(recreated.args.generation).toBe(1n);
    expect((await post("/records/submit", { signedXdr: sign(recreated.tx) })).status).toBe(200);
    expect((await get("/v1/subnames/acme/alice/shop")).record).toMatchObject({
      exists: true,
      active: true,
      generation: "2",
    });
  });

  it("sets and clears a network address", async () => {
    const canonical = canonicalChainAddress("ethereum", ETH_LOWER);
    const prepared = await post("/records/prepare", {
      name: "alice.acme",
      chainAddress: { network: "ethereum", address: ETH_LOWER },
    });
    expect(prepared).toEqual({
      status: 200,
      body: {
        ok: true,
        xdr: expect.any(String),
        holder: alice.publicKey(),
        signer: alice.publicKey(),
        namespace: "acme",
        resolverId: resolver,
        network: devnet.networkPassphrase,
      },
    });
    const set = review(prepared.body.xdr, resolver, ResolverFns.set_chain_address, alice.publicKey());
    expect(set.args).toEqual({ node: nameNode("alice", "acme"), network: "ethereum", address: canonical });
    expect((await post("/records/submit", { signedXdr: sign(set.tx) })).status).toBe(200);
    expect(await get("/v1/chain-address/acme/alice/ethereum")).toEqual({
      name: "alice.acme",
      network: "ethereum",
      address: canonical,
    });

    const clearing = await post("/records/prepare", {
      name: "alice.acme",
      chainAddress: { network: "ethereum", address: null },
    });
    const cleared = review(clearing.body.xdr, resolver, ResolverFns.set_chain_address, alice.publicKey());
    expect(cleared.args.address).toBeNull();
    expect((await post("/records/submit", { signedXdr: sign(cleared.tx) })).status).toBe(200);
    expect(await get("/v1/chain-address/acme/alice/ethereum")).toEqual({
      name: "alice.acme",
      network: "ethereum",
      address: null,
    });

    // Removal is allowed on a network the namespace has not enabled; writing there is not.
    const offList = await post("/records/prepare", {
      name: "pay.alice.acme",
      chainAddress: { network: "solana", address: null },
    });
    expect(offList.status).toBe(200);
  });

  it("answers each listed error code for a crafted bad request", async () => {
    // A name held by a contract: issued by the acme owner to the lookup contract's address.
    const owner = new Wallet({ rpcUrl: devnet.rpcUrl, networkPassphrase: devnet.networkPassphrase });
    const vault = devnet.contracts.lookup;
    await owner.invoke(demoKeypair("acme"), registrar, RegistrarFns.issue, {
      label: "vault",
      holder: vault,
      address: vault,
      expiresAt: 0n,
    });

    const create = { action: "create", parentGeneration: "1", generation: null, address: alice.publicKey() };
    const cases = [
      [
        "/subnames/prepare",
        { ...create, name: "shop.alice.acme", parentGeneration: "2", generation: "2" },
        409,
        {
          error: "subname_generation_mismatch",
          name: "shop.alice.acme",
          parentGeneration: "1",
          generation: "2",
          exists: true,
        },
      ],
      [
        "/subnames/prepare",
        { ...create, name: "shop.alice.acme" },
        409,
        {
          error: "subname_generation_mismatch",
          name: "shop.alice.acme",
          parentGeneration: "1",
          generation: "2",
          exists: true,
        },
      ],
      [
        "/subnames/prepare",
        { ...create, name: "x.carol.plain", address: demoKeypair("carol").publicKey() },
        409,
        { error: "subname_creation_disabled" },
      ],
      [
        "/subnames/prepare",
        { ...create, name: "pay.alice.acme", generation: "1" },
        409,
        { error: "name_taken" },
      ],
      ["/subnames/prepare", { ...create, name: "x.old.acme" }, 404, { error: "parent_inactive" }],
      [
        "/subnames/prepare",
        { ...create, name: "x.vault.acme" },
        409,
        { error: "contract_holder_requires_adapter", name: "vault.acme", holder: vault },
      ],
      [
        "/subnames/prepare",
        { ...create, name: "x.alice.acme", address: undefined },
        400,
        { error: "invalid_request", detail: "address: is required for create" },
      ],
      [
        // One past u64 (the contracts' generations) is a malformed request, not a mismatch.
        "/subnames/prepare",
        { ...create, name: "shop.alice.acme", parentGeneration: "18446744073709551616" },
        400,
        { error: "invalid_request", detail: "parentGeneration: must be at most 18446744073709551615" },
      ],
      [
        "/subnames/prepare",
        { ...create, name: "alice.acme" },
        400,
        {
          error: "invalid_name",
          detail: "name: must be a full child name (child.label.namespace; A-Z is lower-cased)",
        },
      ],
      [
        "/records/prepare",
        { name: "alice.acme", chainAddress: { network: "ethereum", address: "0x1234" } },
        400,
        { error: "invalid_chain_address", network: "ethereum" },
      ],
      [
        "/records/prepare",
        { name: "alice.acme", chainAddress: { network: "dogecoin", address: "D123" } },
        400,
        { error: "unsupported_network", network: "dogecoin" },
      ],
      [
        "/records/prepare",
        {
          name: "alice.acme",
          chainAddress: { network: "solana", address: "11111111111111111111111111111111" },
        },
        409,
        { error: "chain_disabled", network: "solana" },
      ],
      [
        "/records/prepare",
        { name: "vault.acme", chainAddress: { network: "bitcoin", address: null } },
        409,
        { error: "contract_holder_requires_adapter", name: "vault.acme", holder: vault },
      ],
      [
        "/records/prepare",
        { name: "carol.plain", chainAddress: { network: "bitcoin", address: null } },
        409,
        { error: "no_resolver", namespace: "plain" },
      ],
      [
        "/records/submit",
        { signedXdr: "not a transaction" },
        400,
        { error: "invalid_request", detail: "signedXdr: is not a base64 transaction envelope" },
      ],
    ] as const;
    for (const [url, payload, status, body] of cases) {
      const got = await post(url, payload);
      expect({ url, payload, ...got }).toEqual({ url, payload, status, body });
    }
  });

  it("refuses a transaction that is unsigned or signed for another network", async () => {
    const prepared = await prepareSubname({
      name: "web.alice.acme",
      action: "create",
      parentGeneration: "1",
      generation: null,
      address: alice.publicKey(),
    });
    expect(await post("/records/submit", { signedXdr: prepared.xdr })).toEqual({
      status: 400,
      body: { error: "invalid_request", detail: "signedXdr: the transaction is not signed" },
    });
    const elsewhere = TransactionBuilder.fromXDR(prepared.xdr, OTHER_NETWORK) as Transaction;
    expect(OTHER_NETWORK).not.toBe(STANDALONE_PASSPHRASE);
    expect(await post("/records/submit", { signedXdr: sign(elsewhere) })).toEqual({
      status: 400,
      body: { error: "invalid_request", detail: "signedXdr: is not signed for this network" },
    });
  });

  it("relays only the kinds of transaction it prepares, refusing others before sending anything", async () => {
    const account = await server.getAccount(alice.publicKey());
    const build = (...ops: xdr.Operation[]) => {
      const builder = new TransactionBuilder(account, {
        fee: "1000",
        networkPassphrase: devnet.networkPassphrase,
      }).setTimeout(300);
      for (const op of ops) builder.addOperation(op);
      return sign(builder.build());
    };
    const call = (contract: string, fn: string) =>
      Operation.invokeContractFunction({ contract, function: fn, args: [] });
    const unknown = StrKey.encodeContract(Buffer.alloc(32, 7));
    const before = await server.getAccount(alice.publicKey());
    const refused = (detail: string) => ({ status: 400, body: { error: "transaction_not_allowed", detail } });
    expect(
      await post("/records/submit", {
        signedXdr: build(
          Operation.payment({
            destination: demoKeypair("bob").publicKey(),
            asset: Asset.native(),
            amount: "1",
          }),
        ),
      }),
    ).toEqual(
      refused(
        `signedXdr: carries a none memo; the payments this service prepares carry the hash memo it handed out`,
      ),
    );
    // The same with a hash memo: still not the escrow or the billing account (neither is on here).
    const toBob = new TransactionBuilder(account, {
      fee: "1000",
      networkPassphrase: devnet.networkPassphrase,
    })
      .addOperation(
        Operation.payment({
          destination: demoKeypair("bob").publicKey(),
          asset: Asset.native(),
          amount: "1",
        }),
      )
      .addMemo(Memo.hash("ab".repeat(32)))
      .setTimeout(300)
      .build();
    expect(await post("/records/submit", { signedXdr: sign(toBob) })).toEqual(
      refused(
        `signedXdr: pays ${demoKeypair("bob").publicKey()}, which is neither the marketplace escrow nor the billing account; this service relays no other payment`,
      ),
    );
    expect(
      await post("/records/submit", {
        signedXdr: build(Operation.bumpSequence({ bumpTo: "0" })),
      }),
    ).toEqual(
      refused(
        "signedXdr: is a bumpSequence operation; this service relays only the contract calls and payments it prepares",
      ),
    );
    expect(await post("/records/submit", { signedXdr: build(call(unknown, "set_chain_address")) })).toEqual(
      refused(`signedXdr: calls ${unknown}, a contract this service does not track`),
    );
    expect(await post("/records/submit", { signedXdr: build(call(registrar, "transfer")) })).toEqual(
      refused(
        "signedXdr: calls transfer, which this service does not prepare (relayed: set_chain_address, set_text, set_payment, set_display_name, set_address, set_primary, create_subname, remove_subname, accept_transfer, announce, withdraw, claim_fee_credit)",
      ),
    );
    expect(await post("/records/submit", { signedXdr: build(call(registrar, "set_chain_address")) })).toEqual(
      refused(`signedXdr: calls set_chain_address on the registrar ${registrar}; it belongs to a resolver`),
    );
    expect(
      await post("/records/submit", {
        signedXdr: build(call(resolver, "set_chain_address"), call(resolver, "set_chain_address")),
      }),
    ).toEqual(
      refused("signedXdr: has 2 operations; this service relays exactly one contract call or payment"),
    );
    expect(await post("/records/submit", { signedXdr: "A".repeat(20_000) })).toEqual({
      status: 413,
      body: {
        error: "payload_too_large",
        detail: "signedXdr: is 20000 characters; a prepared transaction is at most 16384",
      },
    });
    // Nothing was sent: the account's sequence number did not move.
    expect((await server.getAccount(alice.publicKey())).sequenceNumber()).toBe(before.sequenceNumber());
  });

  it("reports a transaction that failed on chain with its hash and result code", async () => {
    const prepared = await prepareSubname({
      name: "late.alice.acme",
      action: "create",
      parentGeneration: "1",
      generation: null,
      address: alice.publicKey(),
    });
    const { tx } = review(prepared.xdr, registrar, RegistrarFns.create_subname, alice.publicKey());
    // Between preparing and submitting, the owner suspends subnames: the transaction fails when applied.
    const owner = new Wallet({ rpcUrl: devnet.rpcUrl, networkPassphrase: devnet.networkPassphrase });
    await owner.invoke(demoKeypair("acme"), registrar, RegistrarFns.set_subname_policy, {
      policy: "suspended",
    });
    try {
      expect(await post("/records/submit", { signedXdr: sign(tx) })).toEqual({
        status: 409,
        body: {
          error: "transaction_failed",
          txHash: hashOf(tx),
          resultCode: "txFailed",
          // Read from the failed transaction's diagnostic events (the devnet keeps them, as a node with
          // ENABLE_SOROBAN_DIAGNOSTIC_EVENTS does): the registrar's #8, subnames suspended.
          contractError: 8,
          code: "subnames_suspended",
        },
      });
    } finally {
      await owner.invoke(demoKeypair("acme"), registrar, RegistrarFns.set_subname_policy, {
        policy: "enabled",
      });
    }
  });

  it("names the account that had to sign when a subname change is signed by the wrong account", async () => {
    const prepared = await prepareSubname({
      name: "owner.alice.acme",
      action: "create",
      parentGeneration: "1",
      generation: null,
      address: alice.publicKey(),
    });
    const { tx } = review(prepared.xdr, registrar, RegistrarFns.create_subname, alice.publicKey());
    // A new user's mistake: the namespace owner signs, but only the parent name's holder (alice) may.
    const namespaceOwner = demoKeypair("acme");
    expect(await post("/records/submit", { signedXdr: sign(tx, namespaceOwner) })).toEqual({
      status: 409,
      body: {
        error: "transaction_failed",
        txHash: hashOf(tx),
        resultCode: "txBadAuth",
        contractError: null,
        code: null,
        signer: alice.publicKey(),
        detail: `the network found no valid signature by ${alice.publicKey()}, the account that must sign this transaction (a prepare answer names it as signer): sign it with that account's key`,
      },
    });
    // Nothing was created: the child was never stored.
    expect((await get("/v1/subnames/acme/alice/owner")).record).toBeNull();
  });

  it("answers 202 with the original hash while pending, then the final result for the same XDR", async () => {
    // Ledgers close only on demand from here, and the route polls once: the transaction cannot be final in time.
    devnet.setCloseInterval(0);
    const impatient = Fastify().withTypeProvider<ZodTypeProvider>();
    impatient.setValidatorCompiler(validatorCompiler);
    impatient.setSerializerCompiler(serializerCompiler);
    installErrorHandling(impatient);
    await impatient.register(holderTxRoutes, {
      db: database,
      config: testConfig(),
      chainClient,
      now: () => new Date(),
      submit: { attempts: 1, intervalMs: 0 },
    });
    try {
      const prepared = await post("/records/prepare", {
        name: "alice.acme",
        chainAddress: { network: "bitcoin", address: "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2" },
      });
      const { tx } = review(prepared.body.xdr, resolver, ResolverFns.set_chain_address, alice.publicKey());
      const signedXdr = sign(tx);
      const pending = { status: 202, body: { ok: false, pending: true, txHash: hashOf(tx) } };
      expect(await post("/records/submit", { signedXdr }, impatient)).toEqual(pending);
      // Known to the network already (DUPLICATE): still the same transaction, still pending.
      expect(await post("/records/submit", { signedXdr }, impatient)).toEqual(pending);

      const closed = devnet.closeLedger();
      expect(await post("/records/submit", { signedXdr }, impatient)).toEqual({
        status: 200,
        body: { ok: true, txHash: hashOf(tx), ledger: closed.sequence },
      });
      expect(await get("/v1/chain-address/acme/alice/bitcoin")).toEqual({
        name: "alice.acme",
        network: "bitcoin",
        address: "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
      });
    } finally {
      await impatient.close();
    }
  });
});
