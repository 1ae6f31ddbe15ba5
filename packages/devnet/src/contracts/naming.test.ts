import {
  address,
  type ContractEvent,
  decodeEvent,
  LookupFns,
  nameNode,
  namespaceNode,
  PrimaryFns,
  RegistrarFns,
  RegistryFns,
  ResolverFns,
  subnameNode,
} from "@namereg/protocol";
import { Keypair, StrKey, type xdr } from "@stellar/stellar-sdk";
import { beforeEach, describe, expect, it } from "vitest";
import { AuthError, MemoryHost } from "../../test/fixtures/memory-host.ts";
import { ContractError } from "../host/contract.ts";
import { lookupContract } from "./lookup.ts";
import { primaryContract } from "./primary.ts";
import { registrarContract } from "./registrar.ts";
import { registryContract } from "./registry.ts";
import { resolverContract } from "./resolver.ts";

const key = (n: number) => Keypair.fromRawEd25519Seed(Buffer.alloc(32, n)).publicKey();
const ADMIN = key(1);
const OWNER = key(2);
const ALICE = key(3);
const BOB = key(4);
const ALLOCATOR = StrKey.encodeContract(Buffer.alloc(32, 9));
const ETH = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

type Fn = { name: string; encodeArgs(a: never): xdr.ScVal[]; returns: { decode(v: xdr.ScVal): unknown } };

let host: MemoryHost;
let registry: string;
let lookup: string;
let primary: string;

function call<F extends Fn>(id: string, fn: F, args: Parameters<F["encodeArgs"]>[0], signers: string[] = []) {
  return fn.returns.decode(host.invoke(id, fn.name, fn.encodeArgs(args as never), signers)) as ReturnType<
    F["returns"]["decode"]
  >;
}

function expectContractError(run: () => unknown, code: number): void {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ContractError);
    expect((err as ContractError).code).toBe(code);
    return;
  }
  expect.unreachable(`expected Error(Contract, #${code})`);
}

function eventsFrom(index: number): ContractEvent[] {
  return host.eventsSince(index).map((e) => {
    const decoded = decodeEvent(e.topics, e.data);
    if (decoded === null) throw new Error("unexpected foreign event");
    return decoded;
  });
}

/** acme allocated to OWNER, with a resolver; returns the registrar and resolver ids. */
function allocateAcme(): { registrar: string; resolver: string } {
  call(registry, RegistryFns.allocate, { label: "acme", owner: OWNER, method: "allocate" }, [ALLOCATOR]);
  const resolver = call(registry, RegistryFns.deploy_resolver, { node: namespaceNode("acme") }, [OWNER]);
  const ns = call(registry, RegistryFns.namespace, { node: namespaceNode("acme") });
  if (ns === null) throw new Error("acme missing");
  return { registrar: ns.registrar, resolver };
}

beforeEach(() => {
  host = new MemoryHost();
  for (const c of [registryContract, registrarContract, resolverContract, lookupContract, primaryContract])
    host.register(c);
  registry = host.deploy(
    "registry",
    RegistryFns.__constructor.encodeArgs({ admin: ADMIN, allocator: ALLOCATOR }),
  );
  lookup = host.deploy("lookup", LookupFns.__constructor.encodeArgs({ admin: ADMIN, registry }));
  primary = host.deploy("primary", PrimaryFns.__constructor.encodeArgs({ lookup }));
});

describe("registry", () => {
  it("allocates a namespace only through the allocator, deploying its registrar", () => {
    expect(() =>
      call(registry, RegistryFns.allocate, { label: "acme", owner: OWNER, method: "allocate" }, [OWNER]),
    ).toThrow(AuthError);
    const start = host.events.length;
    const { registrar } = allocateAcme();
    const ns = call(registry, RegistryFns.namespace, { node: namespaceNode("acme") });
    expect(ns).toMatchObject({ label: "acme", owner: OWNER, registrar, locked: false, method: "allocate" });
    expect(host.executableOf(registrar)).toBe("wasm:registrar");
    const [allocated, deployed] = eventsFrom(start);
    expect(allocated).toEqual({
      type: "ns_v1",
      node: namespaceNode("acme"),
      data: { label: "acme", owner: OWNER, resolver: null, method: "allocate" },
    });
    expect(deployed).toMatchObject({ type: "dep_res", node: namespaceNode("acme") });
    expectContractError(
      () =>
        call(registry, RegistryFns.allocate, { label: "acme", owner: BOB, method: "allocate" }, [ALLOCATOR]),
      4,
    );
  });

  it("moves ownership with a live proposal only, and locks routing", () => {
    allocateAcme();
    const node = namespaceNode("acme");
    call(registry, RegistryFns.propose_transfer, { node, to: BOB, expires: host.timestamp + 100n }, [OWNER]);
    expect(call(registry, RegistryFns.transfer_proposal, { node })).toEqual({
      to: BOB,
      expires: host.timestamp + 100n,
    });
    expect(() => call(registry, RegistryFns.accept_transfer, { node }, [ALICE])).toThrow(AuthError);
    host.timestamp += 200n;
    expectContractError(() => call(registry, RegistryFns.accept_transfer, { node }, [BOB]), 13);
    call(registry, RegistryFns.propose_transfer, { node, to: BOB, expires: host.timestamp + 100n }, [OWNER]);
    const start = host.events.length;
    call(registry, RegistryFns.accept_transfer, { node }, [BOB]);
    expect(eventsFrom(start)).toEqual([{ type: "acc_tr", node, data: { from: OWNER, to: BOB } }]);
    expect(call(registry, RegistryFns.namespace, { node })?.owner).toBe(BOB);
    call(registry, RegistryFns.lock, { node }, [BOB]);
    expectContractError(() => call(registry, RegistryFns.deploy_registrar, { node }, [BOB]), 16);
  });

  it("upgrading a registrar changes its executable and emits reg_upg", () => {
    const { registrar } = allocateAcme();
    const node = namespaceNode("acme");
    const start = host.events.length;
    call(registry, RegistryFns.upgrade_registrar, { node, wasm: new Uint8Array([1, 2, 3]) }, [OWNER]);
    expect(host.executableOf(registrar)).toMatch(/^[0-9a-f]{64}$/);
    expect(eventsFrom(start)).toEqual([{ type: "reg_upg", node, data: registrar }]);
  });
});

describe("registrar names", () => {
  it("keeps the lock's promise: no reclaim of a live name, no expiry for a permanent one; issuing still works", () => {
    const { registrar } = allocateAcme();
    const issue = (label: string, expiresAt: bigint) =>
      call(registrar, RegistrarFns.issue, { label, holder: ALICE, address: ALICE, expiresAt }, [OWNER]);
    issue("forever", 0n);
    issue("timed", host.timestamp + 100n);
    call(registry, RegistryFns.lock, { node: namespaceNode("acme") }, [OWNER]);
    expectContractError(() => call(registrar, RegistrarFns.reclaim, { label: "forever" }, [OWNER]), 16);
    expectContractError(() => call(registrar, RegistrarFns.reclaim, { label: "timed" }, [OWNER]), 16);
    expectContractError(
      () =>
        call(registrar, RegistrarFns.renew, { label: "forever", expiresAt: host.timestamp + 10n }, [OWNER]),
      16,
    );
    // A timed name may still be renewed, and reclaimed once it has expired.
    call(registrar, RegistrarFns.renew, { label: "timed", expiresAt: host.timestamp + 200n }, [OWNER]);
    host.timestamp += 300n;
    call(registrar, RegistrarFns.reclaim, { label: "timed" }, [OWNER]);
    issue("later", 0n);
    expect(call(registrar, RegistrarFns.name, { label: "later" })).toMatchObject({
      holder: ALICE,
      active: true,
    });
  });

  it("issues with generations, reclaims, reissues, and emits name_v1 each time", () => {
    const { registrar } = allocateAcme();
    expect(() =>
      call(registrar, RegistrarFns.issue, { label: "alice", holder: ALICE, address: ALICE, expiresAt: 0n }, [
        ALICE,
      ]),
    ).toThrow(AuthError);
    const start = host.events.length;
    call(registrar, RegistrarFns.issue, { label: "alice", holder: ALICE, address: ALICE, expiresAt: 0n }, [
      OWNER,
    ]);
    expectContractError(
      () =>
        call(registrar, RegistrarFns.issue, { label: "alice", holder: BOB, address: BOB, expiresAt: 0n }, [
          OWNER,
        ]),
      4,
    );
    call(registrar, RegistrarFns.reclaim, { label: "alice" }, [OWNER]);
    call(registrar, RegistrarFns.issue, { label: "alice", holder: BOB, address: BOB, expiresAt: 0n }, [
      OWNER,
    ]);
    const node = nameNode("alice", "acme");
    expect(
      eventsFrom(start).map((e) =>
        e.type === "name_v1" ? [e.generation, e.data.action, e.data.holder] : e.type,
      ),
    ).toEqual([
      [1n, "issue", ALICE],
      [1n, "reclaim", ALICE],
      [2n, "issue", BOB],
    ]);
    expect(eventsFrom(start)[0]).toMatchObject({ node });
    expect(call(registrar, RegistrarFns.name, { label: "alice" })).toMatchObject({
      holder: BOB,
      generation: 2n,
      active: true,
    });
  });

  it("lets an expired name be reissued and refuses writes by a non-holder", () => {
    const { registrar } = allocateAcme();
    call(
      registrar,
      RegistrarFns.issue,
      { label: "old", holder: ALICE, address: ALICE, expiresAt: host.timestamp + 10n },
      [OWNER],
    );
    expect(() => call(registrar, RegistrarFns.set_address, { label: "old", address: BOB }, [BOB])).toThrow(
      AuthError,
    );
    host.timestamp += 11n;
    expectContractError(
      () => call(registrar, RegistrarFns.set_address, { label: "old", address: BOB }, [ALICE]),
      3,
    );
    call(registrar, RegistrarFns.issue, { label: "old", holder: BOB, address: BOB, expiresAt: 0n }, [OWNER]);
    expect(call(registrar, RegistrarFns.name, { label: "old" })?.generation).toBe(2n);
  });

  it("two-step transfer: propose, accept by the recipient, cancel is idempotent", () => {
    const { registrar } = allocateAcme();
    call(registrar, RegistrarFns.issue, { label: "alice", holder: ALICE, address: ALICE, expiresAt: 0n }, [
      OWNER,
    ]);
    const start = host.events.length;
    call(registrar, RegistrarFns.propose, { label: "alice", to: BOB, expires: host.timestamp + 50n }, [
      ALICE,
    ]);
    call(registrar, RegistrarFns.accept, { label: "alice" }, [BOB]);
    call(registrar, RegistrarFns.cancel, { label: "alice" }, [BOB]);
    const events = eventsFrom(start);
    expect(events.map((e) => e.type)).toEqual(["xfer_v1", "name_v1", "xfer_v1"]);
    expect(events[0]).toMatchObject({
      data: { action: "propose", to: BOB, proposalExpires: host.timestamp + 50n },
    });
    expect(events[1]).toMatchObject({ data: { action: "transfer", holder: BOB } });
    expect(events[2]).toMatchObject({ data: { action: "cancel", to: null, proposalExpires: null } });
  });
});

describe("subnames (docs/contracts.md, Registrar)", () => {
  let registrar: string;
  beforeEach(() => {
    registrar = allocateAcme().registrar;
    call(registrar, RegistrarFns.issue, { label: "alice", holder: ALICE, address: ALICE, expiresAt: 0n }, [
      OWNER,
    ]);
  });
  const create = (generation: bigint | null, parentGeneration = 1n) =>
    call(
      registrar,
      RegistrarFns.create_subname,
      { label: "alice", child: "pay", parentGeneration, generation, address: BOB },
      [ALICE],
    );
  const remove = (generation: bigint, parentGeneration = 1n) =>
    call(
      registrar,
      RegistrarFns.remove_subname,
      { label: "alice", child: "pay", parentGeneration, generation },
      [ALICE],
    );

  it("creates, removes and recreates with the previous generation", () => {
    const start = host.events.length;
    create(null);
    expectContractError(() => create(null), 6);
    expectContractError(() => create(1n), 4);
    remove(1n);
    expectContractError(() => remove(1n), 6);
    expectContractError(() => create(null), 6);
    create(1n);
    expect(call(registrar, RegistrarFns.subname, { label: "alice", child: "pay" })).toEqual({
      exists: true,
      parentGeneration: 1n,
      generation: 2n,
      address: BOB,
    });
    const events = eventsFrom(start);
    expect(events.map((e) => (e.type === "sub_v1" ? `${e.data.action}@${e.generation}` : e.type))).toEqual([
      "create@1",
      "remove@1",
      "create@2",
    ]);
    expect(events[0]).toMatchObject({
      node: subnameNode("pay", "alice", "acme"),
      data: { parent: nameNode("alice", "acme"), child: "pay" },
    });
  });

  it("checks the parent generation, the policy and parent liveness", () => {
    expectContractError(() => create(null, 2n), 6);
    call(registrar, RegistrarFns.set_subname_policy, { policy: "creation_disabled" }, [OWNER]);
    expectContractError(() => create(null), 7);
    call(registrar, RegistrarFns.set_subname_policy, { policy: "suspended" }, [OWNER]);
    expectContractError(() => create(null), 8);
    expect(call(registrar, RegistrarFns.subname_policy, {})).toEqual({ policy: "suspended", owner: OWNER });
    call(registrar, RegistrarFns.set_subname_policy, { policy: "enabled" }, [OWNER]);
    call(registrar, RegistrarFns.reclaim, { label: "alice" }, [OWNER]);
    // The holder's signature no longer helps once the parent is reclaimed.
    expectContractError(() => create(null), 5);
  });

  it("lists children in creation order with removed and stale ones", () => {
    create(null);
    call(
      registrar,
      RegistrarFns.create_subname,
      { label: "alice", child: "old", parentGeneration: 1n, generation: null, address: ALICE },
      [ALICE],
    );
    call(
      registrar,
      RegistrarFns.remove_subname,
      { label: "alice", child: "old", parentGeneration: 1n, generation: 1n },
      [ALICE],
    );
    const list = call(registrar, RegistrarFns.subnames, { label: "alice", offset: 0, limit: 16 });
    expect(list.map(([c, r]) => [c, r.exists])).toEqual([
      ["pay", true],
      ["old", false],
    ]);
    expect(
      call(registrar, RegistrarFns.subnames, { label: "alice", offset: 1, limit: 1 }).map(([c]) => c),
    ).toEqual(["old"]);
    expect(call(registrar, RegistrarFns.subnames, { label: "alice", offset: 2, limit: 16 })).toEqual([]);
  });
});

describe("resolver, lookup and primary", () => {
  let registrar: string;
  let resolver: string;
  const node = nameNode("alice", "acme");
  beforeEach(() => {
    ({ registrar, resolver } = allocateAcme());
    call(registrar, RegistrarFns.issue, { label: "alice", holder: ALICE, address: BOB, expiresAt: 0n }, [
      OWNER,
    ]);
  });

  it("lookup falls back to the registrar address and prefers the resolver payment", () => {
    expect(call(lookup, LookupFns.lookup, { name: "alice.acme" })).toEqual({
      holder: ALICE,
      address: BOB,
      memo: null,
      expiresAt: 0n,
      node,
    });
    call(resolver, ResolverFns.set_payment, { node, address: ALICE, memo: "inv-1" }, [ALICE]);
    expect(call(lookup, LookupFns.lookup, { name: "alice.acme" })).toMatchObject({
      address: ALICE,
      memo: "inv-1",
    });
    expect(call(lookup, LookupFns.lookup, { name: "nobody.acme" })).toBeNull();
    expect(call(lookup, LookupFns.lookup, { name: "alice.nowhere" })).toBeNull();
    expect(call(lookup, LookupFns.lookup, { name: "Not A Name" })).toBeNull();
  });

  it("an address write with a payment configured emits pay_v1 only; otherwise addr_v1", () => {
    let start = host.events.length;
    call(resolver, ResolverFns.set_addr, { node, address: ALICE }, [ALICE]);
    expect(eventsFrom(start)).toEqual([{ type: "addr_v1", node, generation: 1n, data: ALICE }]);
    call(resolver, ResolverFns.set_payment, { node, address: BOB, memo: "m" }, [ALICE]);
    start = host.events.length;
    call(resolver, ResolverFns.set_addr, { node, address: ALICE }, [ALICE]);
    expect(eventsFrom(start)).toEqual([
      { type: "pay_v1", node, generation: 1n, data: { address: ALICE, memo: null } },
    ]);
  });

  it("text events carry the key only; records of an older generation read as absent", () => {
    const start = host.events.length;
    call(resolver, ResolverFns.set_text, { node, key: "avatar", value: "https://x/a.png" }, [ALICE]);
    expect(eventsFrom(start)).toEqual([{ type: "text_v1", node, generation: 1n, data: "avatar" }]);
    expect(call(resolver, ResolverFns.text, { node, key: "avatar" })).toBe("https://x/a.png");
    call(registrar, RegistrarFns.reclaim, { label: "alice" }, [OWNER]);
    call(registrar, RegistrarFns.issue, { label: "alice", holder: BOB, address: BOB, expiresAt: 0n }, [
      OWNER,
    ]);
    expect(call(resolver, ResolverFns.text, { node, key: "avatar" })).toBeNull();
  });

  it("network addresses need the owner's policy, are validated and canonicalised", () => {
    expectContractError(() => call(resolver, ResolverFns.chain_address, { node, network: "ethereum" }), 9);
    expect(() => call(resolver, ResolverFns.set_chain_policy, { networks: ["ethereum"] }, [ALICE])).toThrow(
      AuthError,
    );
    call(resolver, ResolverFns.set_chain_policy, { networks: ["ethereum", "bitcoin", "ethereum"] }, [OWNER]);
    expect(call(resolver, ResolverFns.chain_policy, {})).toEqual(["ethereum", "bitcoin"]);
    expect(call(resolver, ResolverFns.chain_address, { node, network: "ethereum" })).toBeNull();
    expectContractError(
      () =>
        call(resolver, ResolverFns.set_chain_address, { node, network: "ethereum", address: "0x1234" }, [
          ALICE,
        ]),
      10,
    );
    expectContractError(
      () =>
        call(
          resolver,
          ResolverFns.set_chain_address,
          { node, network: "solana", address: "11111111111111111111111111111111" },
          [ALICE],
        ),
      9,
    );
    call(resolver, ResolverFns.set_chain_address, { node, network: "ethereum", address: ETH.toLowerCase() }, [
      ALICE,
    ]);
    expect(call(resolver, ResolverFns.chain_address, { node, network: "ethereum" })).toBe(ETH);
    // Disabling the network keeps removal possible.
    call(resolver, ResolverFns.set_chain_policy, { networks: ["bitcoin"] }, [OWNER]);
    call(resolver, ResolverFns.set_chain_address, { node, network: "ethereum", address: null }, [ALICE]);
    call(resolver, ResolverFns.set_chain_policy, { networks: ["ethereum"] }, [OWNER]);
    expect(call(resolver, ResolverFns.chain_address, { node, network: "ethereum" })).toBeNull();
  });

  it("primary names must resolve to the address; display names must be the pay-to address", () => {
    expectContractError(
      () => call(primary, PrimaryFns.set_primary, { address: ALICE, name: "alice.acme" }, [ALICE]),
      1,
    );
    call(primary, PrimaryFns.set_primary, { address: BOB, name: "alice.acme" }, [BOB]);
    expect(call(primary, PrimaryFns.primary, { address: BOB })).toBe("alice.acme");
    const start = host.events.length;
    call(primary, PrimaryFns.clear_primary, { address: BOB }, [BOB]);
    expect(eventsFrom(start)).toEqual([{ type: "clr_pri", address: BOB, data: null }]);
    expectContractError(() => call(resolver, ResolverFns.set_display_name, { address: BOB, node }, [BOB]), 1);
    call(resolver, ResolverFns.set_payment, { node, address: BOB, memo: null }, [ALICE]);
    call(resolver, ResolverFns.set_display_name, { address: BOB, node }, [BOB]);
    expect(call(resolver, ResolverFns.display_name, { address: BOB })).toBe(node);
  });

  it("subnames resolve through lookup while their binding holds", () => {
    call(
      registrar,
      RegistrarFns.create_subname,
      { label: "alice", child: "pay", parentGeneration: 1n, generation: null, address: OWNER },
      [ALICE],
    );
    expect(call(lookup, LookupFns.lookup, { name: "pay.alice.acme" })).toMatchObject({
      holder: ALICE,
      address: OWNER,
    });
    call(registrar, RegistrarFns.reclaim, { label: "alice" }, [OWNER]);
    call(registrar, RegistrarFns.issue, { label: "alice", holder: BOB, address: BOB, expiresAt: 0n }, [
      OWNER,
    ]);
    expect(call(lookup, LookupFns.lookup, { name: "pay.alice.acme" })).toBeNull();
  });

  it("rolls back every write and event of a failed invocation", () => {
    const start = host.events.length;
    expect(() => call(resolver, ResolverFns.set_text, { node, key: "url", value: "x" }, [BOB])).toThrow(
      AuthError,
    );
    expect(host.events.length).toBe(start);
    expect(address.decode(address.encode(ALICE))).toBe(ALICE);
  });
});

describe("lookup upgrade timelock", () => {
  it("executes only after the delay and emits the exact hash", () => {
    const hash = "cd".repeat(32);
    const start = host.events.length;
    call(lookup, LookupFns.propose_upgrade, { wasmHash: hash, executeAfter: host.timestamp + 60n }, [ADMIN]);
    expectContractError(() => call(lookup, LookupFns.execute_upgrade, {}, [ADMIN]), 14);
    host.timestamp += 60n;
    call(lookup, LookupFns.execute_upgrade, {}, [ADMIN]);
    expect(host.executableOf(lookup)).toBe(hash);
    expect(eventsFrom(start)).toEqual([
      { type: "upg_prop", data: [hash, host.timestamp] },
      { type: "upg_exec", data: hash },
    ]);
    expectContractError(() => call(lookup, LookupFns.cancel_upgrade, {}, [ADMIN]), 13);
  });
});
