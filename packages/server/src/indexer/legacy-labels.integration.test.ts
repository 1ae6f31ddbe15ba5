// Hash-only legacy allocations (docs/operations.md "The indexer") on both databases: a namespace the devnet allocates the legacy way
// (`ns(node)`, no label in the event or the registry's record) waits as a dead letter; a discovery file entry that
// does not hash to its node is reported and not used; a verified one makes the indexer project the allocation at
// its next start, and the namespace's names follow. `namereg legacy-labels check` reports the same on PostgreSQL.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { demoKeypair, type LegacyNamespace, legacyNamespace, type NamingDevnet } from "@namereg/devnet";
import { namespaceNode, RegistryFns } from "@namereg/protocol";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInGroup } from "../../test/fixtures/child-processes.ts";
import { testConfig } from "../../test/fixtures/config.ts";
import { FEATURE_DATABASE_KINDS, type TestDatabase } from "../../test/fixtures/database.ts";
import { indexDemo, indexerFor, runUntilIdle } from "../../test/fixtures/demo.ts";
import { type App, buildApp } from "../api/app.ts";
import { ChainClient } from "../chain/chain-client.ts";
import { ContractReader } from "../chain/contract-reader.ts";
import { readIndexerSnapshot } from "../db/coverage.ts";
import { deadLetters, events, names, namespaces, trackedContracts } from "../db/tables.ts";
import { contractEnv } from "../runtime/commands.ts";
import { parseLegacyLabels } from "./legacy-labels.ts";
import { HASH_ONLY_ALLOCATION } from "./projections/registry.ts";

const owner = demoKeypair("newco");
const holder = demoKeypair("carol");
const NODE = namespaceNode("oldco");
const CLI = fileURLToPath(new URL("../cli.ts", import.meta.url));

describe.each(FEATURE_DATABASE_KINDS)("hash-only legacy allocations (%s)", (kind) => {
  let devnet: NamingDevnet;
  let database: TestDatabase;
  let legacy: LegacyNamespace;
  let app: App;
  let dir: string;
  beforeAll(async () => {
    const indexed = await indexDemo(kind);
    ({ devnet, database } = indexed);
    legacy = await legacyNamespace(devnet, { label: "oldco", owner, name: "vault", holder });
    await runUntilIdle(indexed.indexer);
    app = await buildApp({
      config: testConfig(),
      db: database,
      redis: null,
      chainClient: new ChainClient(devnet.rpcUrl, devnet.networkPassphrase),
    });
    dir = await mkdtemp(join(tmpdir(), "legacy-labels-"));
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await devnet?.stop();
    await database?.close();
  });

  const waiting = async () =>
    (await database.db.select().from(deadLetters).innerJoin(events, eq(events.id, deadLetters.eventId)))
      .filter((r) => r.events.type === "ns" && r.dead_letters.resolvedAt === null)
      .map((r) => ({ subject: r.events.subject, error: r.dead_letters.error }));

  it("the chain itself holds no label: the event is node-only and so is the registry's record", async () => {
    const record = await new ContractReader(devnet.rpcUrl, devnet.networkPassphrase).read(
      devnet.contracts.registry,
      RegistryFns.namespace,
      { node: NODE },
    );
    expect(record).toMatchObject({ label: null, owner: owner.publicKey(), method: "reserved" });
    const [archived] = await database.db.select().from(events).where(eq(events.type, "ns"));
    expect(archived).toMatchObject({ subject: NODE, contractId: devnet.contracts.registry });
  });

  it("without a label the allocation waits as a dead letter; the namespace is not guessed", async () => {
    expect(await waiting()).toEqual([
      { subject: NODE, error: expect.stringContaining(HASH_ONLY_ALLOCATION) },
    ]);
    expect(await database.db.select().from(namespaces).where(eq(namespaces.node, NODE))).toEqual([]);
    expect(
      await database.db
        .select()
        .from(trackedContracts)
        .where(eq(trackedContracts.contractId, legacy.registrar)),
    ).toEqual([]);
    expect((await readIndexerSnapshot(database.db)).deadLetters).toBe(1);
    const resolved = await app.inject({ url: "/v1/resolve/oldco/vault" });
    expect(resolved.statusCode).toBe(404);
    expect(resolved.json()).toMatchObject({ error: "name_not_found" });
  });

  it("an entry that does not hash to the node it claims is reported and not used", async () => {
    const file = parseLegacyLabels(`${NODE} newco\nOld Co\n`);
    expect(file.labels.size).toBe(0);
    expect(file.problems.map((p) => p.line)).toEqual([1, 2]);
    const indexer = indexerFor(devnet, database.db, { legacyLabels: file.labels });
    await indexer.init();
    await runUntilIdle(indexer);
    expect(await waiting()).toHaveLength(1);
    expect(await database.db.select().from(namespaces).where(eq(namespaces.node, NODE))).toEqual([]);
  });

  it("a verified label makes the next indexer start project the allocation and the names under it", async () => {
    const { labels, problems } = parseLegacyLabels(
      `# from the old registry's web archive\noldco\n${NODE} oldco\n`,
    );
    expect(problems).toEqual([]);
    const indexer = indexerFor(devnet, database.db, { legacyLabels: labels });
    await indexer.init();
    await runUntilIdle(indexer);
    expect(await waiting()).toEqual([]);
    expect(await database.db.select().from(namespaces).where(eq(namespaces.node, NODE))).toEqual([
      expect.objectContaining({
        label: "oldco",
        owner: owner.publicKey(),
        registrar: legacy.registrar,
        method: "reserved",
      }),
    ]);
    expect(await database.db.select().from(names).where(eq(names.node, legacy.nameNode))).toEqual([
      expect.objectContaining({ namespace: "oldco", label: "vault", holder: holder.publicKey() }),
    ]);
    const [letter] = await database.db
      .select()
      .from(deadLetters)
      .innerJoin(events, eq(events.id, deadLetters.eventId))
      .where(eq(events.type, "ns"));
    expect(letter?.dead_letters.resolution).toBe("retried: projected with the current code");
    expect(letter?.events.namespace).toBe("oldco");
    expect((await readIndexerSnapshot(database.db)).deadLetters).toBe(0);
    const resolved = await app.inject({ url: "/v1/resolve/oldco/vault" });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json()).toMatchObject({ name: "vault.oldco", account: holder.publicKey() });
  });

  it("a legacy event followed by its ns_v1 companion is archived with it and applied once", async () => {
    const both = await legacyNamespace(devnet, {
      label: "midco",
      owner,
      name: "desk",
      holder,
      companion: true,
    });
    const indexer = indexerFor(devnet, database.db);
    await indexer.init();
    await runUntilIdle(indexer);
    const archived = await database.db
      .select({ type: events.type, txHash: events.txHash })
      .from(events)
      .where(eq(events.subject, both.node));
    expect(archived.map((e) => e.type).sort()).toEqual(["ns", "ns_v1"]);
    expect(new Set(archived.map((e) => e.txHash)).size).toBe(1);
    expect(await waiting()).toEqual([]);
    expect(await database.db.select().from(names).where(eq(names.node, both.nameNode))).toEqual([
      expect.objectContaining({ namespace: "midco", label: "desk" }),
    ]);
  });

  // The CLI opens its own connection, so it runs against the PostgreSQL database only.
  if (kind !== "postgres") return;
  it("`namereg legacy-labels check` verifies a file against the archive", async () => {
    const file = join(dir, "labels.txt");
    await writeFile(file, `oldco\n${NODE} newco\nacme\n`);
    const env = {
      ...process.env,
      LOG_LEVEL: "silent",
      DATABASE_URL: database.url,
      LEGACY_LABELS_FILE: file,
      ...contractEnv(devnet),
    };
    const out = await runInGroup(process.execPath, [CLI, "legacy-labels", "check"], { env });
    expect(out.code).toBe(1);
    expect(out.stdout).toContain(`${file}: 2 verified, 1 rejected`);
    expect(out.stdout).toContain(
      `rejected  line 2: ${NODE} newco — newco hashes to ${namespaceNode("newco")}`,
    );
    expect(out.stdout).toContain(`verified  oldco  ${NODE}  in the mirror`);
    expect(out.stdout).toContain(`verified  acme  ${namespaceNode("acme")}  in the mirror`);
    expect(out.stdout).toContain("no hash-only allocation is waiting for a label");
  });
});
