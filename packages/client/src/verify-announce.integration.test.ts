// verifyAnnounce against the demo devnet: a prepared announcement passes and really pays the fee when signed;
// every kind of tampering, a policy changed between prepare and verify, and an unconfigured policy are refused.
import { demoKeypair, type NamingDevnet, startNamingDevnet, Wallet } from "@namereg/devnet";
import { AllocatorFns, type FeePolicy, RegistryFns, xlmToStroops } from "@namereg/protocol";
import { Keypair, Operation, rpc, type Transaction, TransactionBuilder, xdr } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFeePolicy } from "./fee-policy.ts";
import { verifyAnnounce } from "./verify-announce.ts";

const EVIDENCE = [{ label: "registration", url: "https://example.org/tm/1" }];
const CEILING = 10_000_000n; // 1 XLM

async function funded(devnet: NamingDevnet): Promise<Keypair> {
  const kp = Keypair.random();
  const res = await fetch(`${devnet.rpcUrl}/friendbot?addr=${kp.publicKey()}`);
  expect(res.status).toBe(200);
  return kp;
}

interface AnnounceArgs {
  claimant: string;
  label: string;
  basis: string[];
  evidence: { label: string; url: string }[];
  fee: FeePolicy;
}

async function build(
  devnet: NamingDevnet,
  source: string,
  calls: { contract: string; fn: string; args: xdr.ScVal[] }[],
): Promise<Transaction> {
  const server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
  const account = await server.getAccount(source);
  const builder = new TransactionBuilder(account, {
    fee: "100",
    networkPassphrase: devnet.networkPassphrase,
  });
  for (const c of calls) {
    builder.addOperation(
      Operation.invokeContractFunction({ contract: c.contract, function: c.fn, args: c.args }),
    );
  }
  return builder.setTimeout(300).build();
}

/** What the service's prepare route does: build, simulate and assemble with the claimant as source. */
async function prepareAnnounce(devnet: NamingDevnet, args: AnnounceArgs): Promise<Transaction> {
  const server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
  const tx = await build(devnet, args.claimant, [
    { contract: devnet.contracts.allocator, fn: "announce", args: AllocatorFns.announce.encodeArgs(args) },
  ]);
  return server.prepareTransaction(tx);
}

describe("verifyAnnounce on the demo devnet", () => {
  let devnet: NamingDevnet;
  let wallet: Wallet;
  let policy: FeePolicy;
  let claimant: Keypair;
  let args: AnnounceArgs;

  const verify = (txXdr: string, overrides: Partial<Parameters<typeof verifyAnnounce>[1]> = {}) =>
    verifyAnnounce(txXdr, {
      rpcUrl: devnet.rpcUrl,
      allocatorId: devnet.contracts.allocator,
      label: "freshco",
      basis: ["trademark"],
      evidence: EVIDENCE,
      maxFeeStroops: CEILING,
      ...overrides,
    });

  beforeAll(async () => {
    devnet = await startNamingDevnet({ scenario: "demo", closeIntervalMs: 0 });
    wallet = new Wallet({
      rpcUrl: devnet.rpcUrl,
      networkPassphrase: devnet.networkPassphrase,
      settle: async () => void devnet.closeLedger(),
    });
    const server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
    const read = await readFeePolicy(server, devnet.networkPassphrase, devnet.contracts.allocator);
    if (read === null) throw new Error("the demo configures a fee policy");
    policy = read;
    claimant = await funded(devnet);
    args = {
      claimant: claimant.publicKey(),
      label: "freshco",
      basis: ["trademark"],
      evidence: EVIDENCE,
      fee: policy,
    };
  });
  afterAll(async () => {
    await devnet?.stop();
  });

  it("reads the demo's 100 XLM policy in the native asset", () => {
    expect(policy.amount).toBe(xlmToStroops("100"));
    expect(policy.token).toBe(devnet.contracts.nativeToken);
  });

  it("refuses a transaction that authorises an extra transfer under the announce", async () => {
    const prepared = await prepareAnnounce(devnet, args);
    const [op] = prepared.operations;
    if (op?.type !== "invokeHostFunction") throw new Error("expected the announce call");
    const [entry] = op.auth ?? [];
    const fee = entry?.rootInvocation.subInvocations[0];
    expect(fee).toBeDefined();
    if (entry === undefined || fee === undefined) return;
    // A second, identical-looking transfer of the fee under the same call: the wallet would sign for paying twice.
    const doubled = new xdr.SorobanAuthorizationEntry({
      credentials: entry.credentials,
      rootInvocation: new xdr.SorobanAuthorizedInvocation({
        function: entry.rootInvocation.function,
        subInvocations: [fee, fee],
      }),
    });
    const server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
    const tampered = new TransactionBuilder(await server.getAccount(claimant.publicKey()), {
      fee: "100",
      networkPassphrase: devnet.networkPassphrase,
    })
      .addOperation(Operation.invokeHostFunction({ func: op.func, auth: [doubled] }))
      .setTimeout(300)
      .build()
      .toXDR();
    expect(await verify(prepared.toXDR())).toMatchObject({ ok: true });
    expect(await verify(tampered)).toMatchObject({ ok: false, reason: "unexpected_authorization" });
  });

  it("passes a faithful announcement, which then pays exactly the fee when signed and sent", async () => {
    const prepared = await prepareAnnounce(devnet, args);
    const result = await verify(prepared.toXDR(), { networkPassphrase: devnet.networkPassphrase });
    expect(result).toEqual({
      ok: true,
      claimant: claimant.publicKey(),
      label: "freshco",
      fee: { token: policy.token, amount: policy.amount.toString(), recipient: policy.recipient },
      networkFeeStroops: prepared.fee,
      networkPassphrase: devnet.networkPassphrase,
    });

    const server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
    const before = BigInt((await server.getAccount(claimant.publicKey())).sequenceNumber());
    expect(before).toBeGreaterThan(0n);
    prepared.sign(claimant);
    const sent = await wallet.submit(prepared.toXDR());
    expect(AllocatorFns.announce.returns.decode(sent.returnValue ?? xdr.ScVal.scvVoid())).toBeGreaterThan(0n);
    const receipt = await wallet.read(
      claimant.publicKey(),
      devnet.contracts.allocator,
      AllocatorFns.fee_receipt,
      {
        label: "freshco",
      },
    );
    expect(receipt).toMatchObject({ claimant: claimant.publicKey(), amount: policy.amount, outcome: "Held" });
  });

  it("refuses a transaction whose label, basis or evidence differ from what was reviewed", async () => {
    const other = await funded(devnet);
    const prepared = await prepareAnnounce(devnet, {
      ...args,
      claimant: other.publicKey(),
      label: "otherco",
    });
    const xdrB64 = prepared.toXDR();
    expect(await verify(xdrB64, { label: "otherco" })).toMatchObject({ ok: true });
    expect(await verify(xdrB64, { label: "freshco" })).toMatchObject({ ok: false, reason: "label_mismatch" });
    expect(await verify(xdrB64, { label: "otherco", basis: ["prior_use"] })).toMatchObject({
      ok: false,
      reason: "basis_mismatch",
    });
    expect(await verify(xdrB64, { label: "otherco", evidence: [] })).toMatchObject({
      ok: false,
      reason: "evidence_mismatch",
    });
  });

  it("refuses another contract, another function, extra operations and a foreign claimant", async () => {
    const other = await funded(devnet);
    const encoded = AllocatorFns.announce.encodeArgs({
      ...args,
      claimant: other.publicKey(),
      label: "thirdco",
    });
    const wrongContract = await build(devnet, other.publicKey(), [
      { contract: devnet.contracts.registry, fn: "announce", args: encoded },
    ]);
    expect(await verify(wrongContract.toXDR())).toMatchObject({ ok: false, reason: "not_allocator" });

    const wrongFn = await build(devnet, other.publicKey(), [
      { contract: devnet.contracts.allocator, fn: "fee_policy", args: [] },
    ]);
    expect(await verify(wrongFn.toXDR())).toMatchObject({ ok: false, reason: "not_announce" });

    const two = await build(devnet, other.publicKey(), [
      { contract: devnet.contracts.allocator, fn: "announce", args: encoded },
      { contract: devnet.contracts.registry, fn: RegistryFns.namespace.name, args: [] },
    ]);
    expect(await verify(two.toXDR())).toMatchObject({ ok: false, reason: "malformed_transaction" });

    // The claimant in the arguments is not the account that signs the envelope.
    const foreign = await build(devnet, other.publicKey(), [
      { contract: devnet.contracts.allocator, fn: "announce", args: AllocatorFns.announce.encodeArgs(args) },
    ]);
    expect(await verify(foreign.toXDR())).toMatchObject({ ok: false, reason: "claimant_mismatch" });
    const prepared = await prepareAnnounce(devnet, {
      ...args,
      claimant: other.publicKey(),
      label: "thirdco",
    });
    expect(
      await verify(prepared.toXDR(), { label: "thirdco", claimant: claimant.publicKey() }),
    ).toMatchObject({
      ok: false,
      reason: "claimant_mismatch",
    });

    expect(await verify("AAAA not xdr")).toMatchObject({ ok: false, reason: "malformed_transaction" });
  });

  it("refuses a fee other than the on-chain policy and a network fee over the ceiling", async () => {
    const other = await funded(devnet);
    const base = { ...args, claimant: other.publicKey(), label: "fourthco" };
    const cheaper = await build(devnet, other.publicKey(), [
      {
        contract: devnet.contracts.allocator,
        fn: "announce",
        args: AllocatorFns.announce.encodeArgs({ ...base, fee: { ...policy, amount: policy.amount * 2n } }),
      },
    ]);
    const at = { label: "fourthco" };
    expect(await verify(cheaper.toXDR(), at)).toMatchObject({ ok: false, reason: "fee_mismatch" });
    const elsewhere = await build(devnet, other.publicKey(), [
      {
        contract: devnet.contracts.allocator,
        fn: "announce",
        args: AllocatorFns.announce.encodeArgs({ ...base, fee: { ...policy, recipient: other.publicKey() } }),
      },
    ]);
    expect(await verify(elsewhere.toXDR(), at)).toMatchObject({ ok: false, reason: "fee_mismatch" });

    const prepared = await prepareAnnounce(devnet, base);
    expect(BigInt(prepared.fee)).toBeGreaterThan(100n);
    expect(await verify(prepared.toXDR(), { ...at, maxFeeStroops: 100 })).toMatchObject({
      ok: false,
      reason: "network_fee_too_high",
    });
    expect(await verify(prepared.toXDR(), { ...at, networkPassphrase: "Test SDF" })).toMatchObject({
      ok: false,
      reason: "network_mismatch",
    });
  });

  // Last: it changes the demo chain's policy.
  it("refuses a prepared transaction once the policy changed on chain after it was prepared", async () => {
    const other = await funded(devnet);
    const prepared = await prepareAnnounce(devnet, {
      ...args,
      claimant: other.publicKey(),
      label: "laterco",
    });
    expect(await verify(prepared.toXDR(), { label: "laterco" })).toMatchObject({ ok: true });
    await wallet.invoke(demoKeypair("admin"), devnet.contracts.allocator, AllocatorFns.set_fee_policy, {
      ...policy,
      amount: policy.amount + 1n,
    });
    const result = await verify(prepared.toXDR(), { label: "laterco" });
    expect(result).toMatchObject({ ok: false, reason: "fee_mismatch" });
    expect(result.ok === false && result.detail).toContain(`${policy.amount + 1n}`);
  });
});

describe("verifyAnnounce without a fee policy", () => {
  let devnet: NamingDevnet;
  beforeAll(async () => {
    devnet = await startNamingDevnet({ scenario: "none", closeIntervalMs: 0 });
  });
  afterAll(async () => {
    await devnet?.stop();
  });

  it("refuses: an unconfigured policy is never guessed", async () => {
    const kp = await funded(devnet);
    const tx = await build(devnet, kp.publicKey(), [
      {
        contract: devnet.contracts.allocator,
        fn: "announce",
        args: AllocatorFns.announce.encodeArgs({
          claimant: kp.publicKey(),
          label: "freshco",
          basis: ["trademark"],
          evidence: [],
          fee: { token: devnet.contracts.nativeToken, amount: 1n, recipient: kp.publicKey() },
        }),
      },
    ]);
    const result = await verifyAnnounce(tx.toXDR(), {
      rpcUrl: devnet.rpcUrl,
      allocatorId: devnet.contracts.allocator,
      label: "freshco",
      basis: ["trademark"],
      maxFeeStroops: CEILING,
    });
    expect(result).toMatchObject({ ok: false, reason: "fee_policy_unconfigured" });
  });
});
