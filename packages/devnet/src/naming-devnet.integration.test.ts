// The demo scenario's on-chain state read back through contract view calls (simulateTransaction), and the
// bulk scenario paged through getEvents — all via the unchanged SDK rpc.Server.
import {
  AllocatorFns,
  claimFeeKey,
  decodeEventXdr,
  LookupFns,
  nameNode,
  namespaceNode,
  PrimaryFns,
  RegistrarFns,
  RegistryFns,
  ResolverFns,
  xlmToStroops,
} from "@namereg/protocol";
import { rpc } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NamingDevnet, startNamingDevnet } from "./naming-devnet.ts";
import { DEMO_ETHEREUM, DEMO_MEMO, DEMO_TEXT } from "./scenarios/demo.ts";
import { demoAccounts } from "./scenarios/demo-keys.ts";
import { Wallet } from "./scenarios/wallet.ts";

const k = demoAccounts();
const pk = (role: keyof typeof k) => k[role].publicKey();

describe("demo scenario", () => {
  let devnet: NamingDevnet;
  let wallet: Wallet;
  const reader = pk("alice");

  beforeAll(async () => {
    devnet = await startNamingDevnet({ scenario: "demo", closeIntervalMs: 0 });
    wallet = new Wallet({ rpcUrl: devnet.rpcUrl, networkPassphrase: devnet.networkPassphrase });
  });
  afterAll(async () => {
    await devnet?.stop();
  });

  it("allocated acme, plain, forsale (reserved) and winner (awarded claim)", async () => {
    const ns = async (label: string) =>
      wallet.read(reader, devnet.contracts.registry, RegistryFns.namespace, { node: namespaceNode(label) });
    const acme = await ns("acme");
    expect(acme).toMatchObject({ label: "acme", owner: pk("acme"), method: "reserved", locked: true });
    expect(acme?.resolver).toBe(devnet.demo?.namespaces.acme.resolver);
    expect(await ns("plain")).toMatchObject({ owner: pk("plain"), resolver: null });
    expect(await ns("forsale")).toMatchObject({ owner: pk("seller"), method: "reserved" });
    expect(await ns("winner")).toMatchObject({ owner: pk("winner"), method: "allocate" });
    expect(await ns("newco")).toBeNull();
  });

  it("has the names of docs/design.md in their states", async () => {
    const registrar = devnet.demo?.namespaces.acme.registrar ?? "";
    const name = (label: string) => wallet.read(reader, registrar, RegistrarFns.name, { label });
    const now = BigInt(Math.floor(Date.now() / 1000));
    expect(await name("alice")).toMatchObject({
      holder: pk("alice"),
      expiresAt: 0n,
      generation: 1n,
      active: true,
    });
    const bob = await name("bob");
    expect(bob?.active).toBe(true);
    expect(Number(bob?.expiresAt ?? 0n) - Number(now)).toBeGreaterThan(364 * 86_400);
    const old = await name("old");
    expect(old?.active).toBe(true);
    expect(old?.expiresAt ?? 0n).toBeLessThan(now);
    expect(await name("gone")).toMatchObject({ active: false });
    const plainRegistrar = devnet.demo?.namespaces.plain.registrar ?? "";
    expect(await wallet.read(reader, plainRegistrar, RegistrarFns.name, { label: "carol" })).toMatchObject({
      holder: pk("carol"),
      active: true,
    });
    expect(await wallet.read(reader, plainRegistrar, RegistrarFns.subname_policy, {})).toEqual({
      policy: "creation_disabled",
      owner: pk("plain"),
    });
  });

  it("resolves alice through lookup with her payment and memo; old and gone do not resolve", async () => {
    const lookup = (name: string) => wallet.read(reader, devnet.contracts.lookup, LookupFns.lookup, { name });
    expect(await lookup("alice.acme")).toEqual({
      holder: pk("alice"),
      address: pk("alice"),
      memo: DEMO_MEMO,
      expiresAt: 0n,
      node: nameNode("alice", "acme"),
    });
    expect(await lookup("old.acme")).toBeNull();
    expect(await lookup("gone.acme")).toBeNull();
    expect(await lookup("pay.alice.acme")).toMatchObject({ address: pk("alice") });
    expect(await lookup("old.alice.acme")).toBeNull();
    expect(await lookup("carol.plain")).toMatchObject({ holder: pk("carol") });
  });

  it("stores alice's records, primary name, display name and network address", async () => {
    const resolver = devnet.demo?.namespaces.acme.resolver ?? "";
    const node = nameNode("alice", "acme");
    for (const [key, value] of Object.entries(DEMO_TEXT)) {
      expect(await wallet.read(reader, resolver, ResolverFns.text, { node, key })).toBe(value);
    }
    expect(await wallet.read(reader, resolver, ResolverFns.chain_policy, {})).toEqual([
      "ethereum",
      "bitcoin",
    ]);
    expect(
      await wallet.read(reader, resolver, ResolverFns.chain_address, { node, network: "ethereum" }),
    ).toBe(DEMO_ETHEREUM);
    expect(
      await wallet.read(reader, resolver, ResolverFns.chain_address, { node, network: "bitcoin" }),
    ).toBeNull();
    expect(await wallet.read(reader, resolver, ResolverFns.display_name, { address: pk("alice") })).toBe(
      node,
    );
    expect(
      await wallet.read(reader, devnet.contracts.primary, PrimaryFns.primary, { address: pk("alice") }),
    ).toBe("alice.acme");
  });

  it("has pay.alice.acme active and old.alice.acme removed, listed in creation order", async () => {
    const registrar = devnet.demo?.namespaces.acme.registrar ?? "";
    const list = await wallet.read(reader, registrar, RegistrarFns.subnames, {
      label: "alice",
      offset: 0,
      limit: 16,
    });
    expect(list.map(([child, rec]) => [child, rec.exists, rec.generation])).toEqual([
      ["pay", true, 1n],
      ["old", false, 1n],
    ]);
  });

  it("has the claims, the 100 XLM fee policy and held fee receipts", async () => {
    const { allocator } = devnet.contracts;
    const claims = devnet.demo?.claims;
    if (claims === undefined) throw new Error("no demo manifest");
    expect(await wallet.read(reader, allocator, AllocatorFns.fee_policy, {})).toEqual({
      token: devnet.contracts.nativeToken,
      amount: xlmToStroops("100"),
      recipient: pk("treasury"),
    });
    expect(await wallet.read(reader, allocator, AllocatorFns.claim, { id: claims.newco })).toMatchObject({
      label: "newco",
      state: "announced",
      claimant: pk("newco"),
    });
    expect(await wallet.read(reader, allocator, AllocatorFns.claim, { id: claims.contested })).toMatchObject({
      state: "objected",
    });
    expect(await wallet.read(reader, allocator, AllocatorFns.claim, { id: claims.winner })).toMatchObject({
      state: "awarded",
    });
    expect(await wallet.read(reader, allocator, AllocatorFns.fee_receipt, { label: "newco" })).toMatchObject({
      outcome: "Held",
      amount: xlmToStroops("100"),
    });
    expect(await wallet.read(reader, allocator, AllocatorFns.fee_receipt, { label: "winner" })).toMatchObject(
      {
        outcome: "Awarded",
        treasuryAmount: xlmToStroops("100"),
      },
    );
  });

  it("emitted decodable naming events for every step, readable with getEvents", async () => {
    const server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
    const page = await server.getEvents({
      startLedger: devnet.deploymentLedger,
      filters: [{ type: "contract", contractIds: [devnet.contracts.registry, devnet.contracts.allocator] }],
      limit: 1000,
    });
    const decoded = page.events.map((e) =>
      decodeEventXdr(
        e.topic.map((t) => t.toXdr("base64")),
        e.value.toXdr("base64"),
      ),
    );
    const types = decoded.map((e) => e?.type);
    expect(types.filter((t) => t === "ns_v1")).toHaveLength(4);
    expect(types).toContain("fee_cfg");
    expect(types.filter((t) => t === "clm_ann")).toHaveLength(3);
    expect(types).toContain("clm_obj");
    expect(types).toContain("clm_awd");
    const feePaid = decoded.find((e) => e?.type === "fee_paid" && e.data.label === "newco");
    expect(feePaid).toMatchObject({
      key: claimFeeKey("newco"),
      data: { claimant: pk("newco"), amount: xlmToStroops("100") },
    });
  });
});

describe("bulk scenario", () => {
  it("generates events that getEvents pages through completely", async () => {
    const devnet = await startNamingDevnet({
      scenario: "bulk",
      closeIntervalMs: 0,
      bulk: { namespaces: 3, events: 12_003, eventsPerLedger: 2_500, holders: 10 },
    });
    try {
      const bulk = devnet.bulk;
      if (bulk === undefined) throw new Error("no bulk summary");
      expect(bulk.names).toBe(12_000);
      const server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
      const filters = [{ type: "contract" as const, contractIds: bulk.namespaces.map((n) => n.registrar) }];
      let seen = 0;
      let first = await server.getEvents({ startLedger: bulk.firstLedger, filters, limit: 5_000 });
      const labels = new Set<string>();
      for (let guard = 0; guard < 20; guard++) {
        for (const e of first.events) {
          const ev = decodeEventXdr(
            e.topic.map((t) => t.toXdr("base64")),
            e.value.toXdr("base64"),
          );
          if (ev?.type === "name_v1") labels.add(ev.data.label);
          seen++;
        }
        if (
          first.events.length === 0 &&
          first.latestLedger <= Number(BigInt(first.cursor.split("-")[0] ?? "0") >> 32n)
        )
          break;
        first = await server.getEvents({ cursor: first.cursor, filters, limit: 5_000 });
      }
      expect(seen).toBe(12_000);
      expect(labels.size).toBe(12_000);
      expect(labels.has("n0") && labels.has("n11999")).toBe(true);
    } finally {
      await devnet.stop();
    }
  });
});
