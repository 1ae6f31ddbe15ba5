// Soroban through the unchanged SDK: a small test contract kind, prepareTransaction + sign + send + poll,
// address-credential auth, contract errors, cross-contract calls, the native token, contract data entries.
import {
  Address,
  Asset,
  authorizeEntry,
  Keypair,
  nativeToScVal,
  Operation,
  rpc,
  Contract as SdkContract,
  scValToNative,
  TransactionBuilder,
  xdr,
} from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, itConformsToOpenRpc, startHarness } from "../../test/fixtures/harness.ts";
import { type Contract, ContractError } from "../host/contract.ts";

const COUNT = xdr.ScVal.scvSymbol("count");
const ADMIN = xdr.ScVal.scvSymbol("admin");
const MAX = 7;

/** Test kind: a counter its stored admin must authorise; #4 when it would pass MAX; emits `incr`. */
const counter: Contract = {
  kind: "test_counter",
  invoke(ctx, fn, args) {
    switch (fn) {
      case "__constructor":
        ctx.storage.set(ADMIN, args[0] as xdr.ScVal);
        ctx.storage.set(COUNT, xdr.ScVal.scvU32(0));
        return xdr.ScVal.scvVoid();
      case "increment": {
        const admin = ctx.storage.get(ADMIN);
        if (admin === undefined) throw new Error("no admin");
        ctx.requireAuth(scValToNative(admin) as string);
        const by = scValToNative(args[0] as xdr.ScVal) as number;
        const next = (scValToNative(ctx.storage.get(COUNT) as xdr.ScVal) as number) + by;
        if (next > MAX) throw new ContractError(4);
        ctx.storage.set(COUNT, xdr.ScVal.scvU32(next));
        ctx.emit([xdr.ScVal.scvSymbol("incr"), admin], xdr.ScVal.scvU32(next));
        return xdr.ScVal.scvU32(next);
      }
      case "get":
        return ctx.storage.get(COUNT) ?? xdr.ScVal.scvU32(0);
      default:
        throw new Error(`no function ${fn}`);
    }
  },
};

/** Test kind: forwards `bump(counter, by)` to a counter whose admin is this contract. */
const proxy: Contract = {
  kind: "test_proxy",
  invoke(ctx, fn, args) {
    if (fn !== "bump") throw new Error(`no function ${fn}`);
    const target = scValToNative(args[0] as xdr.ScVal) as string;
    return ctx.call(target, "increment", [args[1] as xdr.ScVal]);
  },
};

let h: Harness;
const admin = Keypair.random();
const user = Keypair.random();
let counterId: string;
let proxyId: string;
let proxiedCounterId: string;

beforeAll(async () => {
  h = await startHarness({
    setup(chain) {
      chain.registerKind(counter);
      chain.registerKind(proxy);
      counterId = chain.deployGenesis("test_counter", "counter", [new Address(admin.publicKey()).toScVal()]);
      proxyId = chain.deployGenesis("test_proxy", "proxy");
      proxiedCounterId = chain.deployGenesis("test_counter", "proxied", [new Address(proxyId).toScVal()]);
      chain.fund(admin.publicKey());
      chain.fund(user.publicKey());
    },
  });
  h.devnet.closeLedger();
});
afterAll(async () => h?.close());

const u32 = (n: number) => nativeToScVal(n, { type: "u32" });

async function invocation(source: Keypair, contractId: string, fn: string, args: xdr.ScVal[]) {
  const account = await h.server.getAccount(source.publicKey());
  return new TransactionBuilder(account, { fee: "100", networkPassphrase: h.devnet.networkPassphrase })
    .addOperation(new SdkContract(contractId).call(fn, ...args))
    .setTimeout(60)
    .build();
}

async function submit(tx: Parameters<rpc.Server["sendTransaction"]>[0]) {
  const sent = await h.server.sendTransaction(tx);
  expect(sent.status, JSON.stringify(sent.errorResult?.result.type)).toBe("PENDING");
  h.devnet.closeLedger();
  return h.server.getTransaction(sent.hash);
}

describe("contract invocation", () => {
  it("derives genesis contract ids as Soroban's deployer does and reads the instance back", async () => {
    const instance = await h.server.getContractInstance(counterId);
    expect(instance.executable.type).toBe("contractExecutableWasm");
    const sac = await h.server.getContractInstance(Asset.native().contractId(h.devnet.networkPassphrase));
    expect(sac.executable.type).toBe("contractExecutableStellarAsset");
    expect(h.devnet.chain.kinds.kindOfHash(h.devnet.chain.wasmHashOf("test_counter"))).toBe("test_counter");
  });

  it("prepares, signs, sends and polls a call by the admin; returnValue decodes", async () => {
    const prepared = await h.server.prepareTransaction(
      await invocation(admin, counterId, "increment", [u32(2)]),
    );
    const data = prepared.toEnvelope();
    expect(data.type === "envelopeTypeTx" && data.v1.tx.ext.type).toBe("sorobanData");
    prepared.sign(admin);
    const got = await submit(prepared);
    expect(got.status).toBe("SUCCESS");
    if (got.status !== "SUCCESS") return;
    expect(got.returnValue && scValToNative(got.returnValue)).toBe(2);
    expect(got.resultMetaXdr.type).toBe("v4");
    const [event] = got.events.contractEventsXdr[0] ?? [];
    expect(event?.body.value.topics.map((t) => scValToNative(t))).toEqual(["incr", admin.publicKey()]);
    // The fee covers the declared resource fee, and what was charged is no more than the bid.
    expect(got.resultXdr.feeCharged).toBeLessThanOrEqual(BigInt(prepared.fee));
    expect(got.resultXdr.feeCharged).toBeGreaterThan(100n);
  });

  it("reads the contract's storage back as ContractData ledger entries", async () => {
    const entry = await h.server.getContractData(counterId, COUNT);
    expect(entry.val.type === "contractData" && scValToNative(entry.val.contractData.val)).toBe(2);
    expect(entry.liveUntilLedgerSeq ?? 0).toBeGreaterThan(entry.lastModifiedLedgerSeq ?? 0);
    expect(scValToNative(h.devnet.chain.readContractData(counterId, COUNT) as xdr.ScVal)).toBe(2);
  });

  it("records address auth for another signer; authorizeEntry's signature is verified on apply", async () => {
    const tx = await invocation(user, counterId, "increment", [u32(1)]);
    const sim = await h.server.simulateTransaction(tx);
    if (!rpc.Api.isSimulationSuccess(sim)) throw new Error(JSON.stringify(sim));
    const [entry] = sim.result?.auth ?? [];
    expect(entry?.credentials.type).toBe("sorobanCredentialsAddress");
    const latest = await h.server.getLatestLedger();
    const signed = await authorizeEntry(
      entry as xdr.SorobanAuthorizationEntry,
      admin,
      latest.sequence + 50,
      h.devnet.networkPassphrase,
    );
    const built = rpc.assembleTransaction(tx, sim).build();
    const op = built.operations[0] as Operation.InvokeHostFunction;
    const final = TransactionBuilder.cloneFrom(built, {
      fee: "100",
      sorobanData: sim.transactionData.build(),
      networkPassphrase: h.devnet.networkPassphrase,
    })
      .clearOperations()
      .addOperation(Operation.invokeHostFunction({ func: op.func, auth: [signed] }))
      .build();
    final.sign(user);
    const got = await submit(final);
    expect(got.status).toBe("SUCCESS");
    if (got.status === "SUCCESS") expect(got.returnValue && scValToNative(got.returnValue)).toBe(3);
  });

  it("fails (host auth error) when the other signer's entry is left unsigned", async () => {
    const tx = await invocation(user, counterId, "increment", [u32(1)]);
    const prepared = await h.server.prepareTransaction(tx);
    prepared.sign(user);
    const got = await submit(prepared);
    expect(got.status).toBe("FAILED");
    if (got.status !== "FAILED" || got.resultXdr.result.type !== "txFailed")
      throw new Error("expected txFailed");
    const op = got.resultXdr.result.results[0];
    expect(
      op?.type === "opInner" && op.tr.type === "invokeHostFunction" && op.tr.invokeHostFunctionResult.type,
    ).toBe("invokeHostFunctionTrapped");
    expect(scValToNative(h.devnet.chain.readContractData(counterId, COUNT) as xdr.ScVal)).toBe(3);
  });

  it("shows a contract error in simulation as `error` and rolls the failed call back", async () => {
    const sim = await h.server.simulateTransaction(
      await invocation(admin, counterId, "increment", [u32(50)]),
    );
    expect(rpc.Api.isSimulationError(sim)).toBe(true);
    if (rpc.Api.isSimulationError(sim)) expect(sim.error).toMatch(/^HostError: Error\(Contract, #4\)/);
    await expect(
      h.server.prepareTransaction(await invocation(admin, counterId, "increment", [u32(50)])),
    ).rejects.toThrow(/Error\(Contract, #4\)/);
  });

  it("fails a prepared call as FAILED with the contract error when the state changed before it applied", async () => {
    const bump = (n: number) => [new Address(proxiedCounterId).toScVal(), u32(n)];
    const first = await h.server.prepareTransaction(await invocation(admin, proxyId, "bump", bump(4)));
    const second = await h.server.prepareTransaction(await invocation(user, proxyId, "bump", bump(4)));
    first.sign(admin);
    second.sign(user);
    const sentFirst = await h.server.sendTransaction(first);
    const sentSecond = await h.server.sendTransaction(second);
    expect([sentFirst.status, sentSecond.status]).toEqual(["PENDING", "PENDING"]);
    h.devnet.closeLedger();
    const succeeded = await h.server.getTransaction(sentFirst.hash);
    const failed = await h.server.getTransaction(sentSecond.hash);
    expect([succeeded.status, failed.status]).toEqual(["SUCCESS", "FAILED"]);
    if (succeeded.status !== "SUCCESS" || failed.status !== "FAILED") return;
    expect(failed.ledger).toBe(succeeded.ledger);
    expect(failed.applicationOrder).toBe(2);
    expect(scValToNative(h.devnet.chain.readContractData(proxiedCounterId, COUNT) as xdr.ScVal)).toBe(4);
  });

  it("lets a contract authorise itself to the contract it calls", async () => {
    const prepared = await h.server.prepareTransaction(
      await invocation(user, proxyId, "bump", [new Address(proxiedCounterId).toScVal(), u32(3)]),
    );
    prepared.sign(user);
    const got = await submit(prepared);
    expect(got.status).toBe("SUCCESS");
    if (got.status === "SUCCESS") expect(got.returnValue && scValToNative(got.returnValue)).toBe(7);
  });

  it("transfers XLM through the native token and emits the SAC transfer event", async () => {
    const sac = Asset.native().contractId(h.devnet.networkPassphrase);
    const before = h.devnet.chain.balanceOf(admin.publicKey()) ?? 0n;
    const prepared = await h.server.prepareTransaction(
      await invocation(user, sac, "transfer", [
        new Address(user.publicKey()).toScVal(),
        new Address(counterId).toScVal(),
        nativeToScVal(1234n, { type: "i128" }),
      ]),
    );
    prepared.sign(user);
    expect((await submit(prepared)).status).toBe("SUCCESS");
    const balance = await h.server.getSACBalance(counterId, Asset.native(), h.devnet.networkPassphrase);
    expect(balance.balanceEntry?.amount).toBe("1234");
    expect(h.devnet.chain.balanceOf(admin.publicKey())).toBe(before);
    const events = await h.server.getEvents({
      startLedger: 1,
      filters: [
        {
          type: "contract",
          contractIds: [sac],
          topics: [["*", "*", new Address(counterId).toScVal().toXDR("base64"), "**"]],
        },
      ],
    });
    expect(events.events).toHaveLength(1);
    expect(scValToNative(events.events[0]?.value as xdr.ScVal)).toBe(1234n);
  });
});

describe("contract events", () => {
  it("pages the counter's events with a topic filter", async () => {
    const incr = xdr.ScVal.scvSymbol("incr").toXDR("base64");
    const page = await h.server.getEvents({
      startLedger: 1,
      filters: [{ contractIds: [counterId], topics: [[incr, "*"]] }],
    });
    expect(page.events.map((e) => scValToNative(e.value))).toEqual([2, 3]);
    const proxied = await h.server.getEvents({
      startLedger: 1,
      filters: [{ contractIds: [proxiedCounterId] }],
    });
    expect(proxied.events.map((e) => scValToNative(e.value))).toEqual([4, 7]);
    expect(proxied.events.map((e) => scValToNative(e.topic[1] as xdr.ScVal))).toEqual([proxyId, proxyId]);
    for (const e of page.events) expect(e.id).toMatch(/^\d{19}-\d{10}$/);
  });
});

itConformsToOpenRpc(
  () => h,
  ["simulateTransaction", "sendTransaction", "getTransaction", "getLedgerEntries", "getEvents"],
);
