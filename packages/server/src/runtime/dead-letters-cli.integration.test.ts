// `namereg dead-letters` as an operator runs it (in this process through the command's entry, and once as the real
// binary), against the indexed demo on PostgreSQL: list, retry (a letter
// the current code can project, and one it still cannot), resolve with a reason; /v1/status counts the unresolved.
import type { NamingDevnet } from "@namereg/devnet";
import { nameNode } from "@namereg/protocol";
import { xdr } from "@stellar/stellar-sdk";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliProcess } from "../../test/fixtures/cli.ts";
import type { TestDatabase } from "../../test/fixtures/database.ts";
import { indexDemo, runUntilIdle } from "../../test/fixtures/demo.ts";
import { BACKSTOP_MS } from "../../test/fixtures/progress.ts";
import { readIndexerSnapshot } from "../db/coverage.ts";
import { deadLetters, events, names } from "../db/tables.ts";
import type { Indexer } from "../indexer/indexer.ts";
import { contractEnv } from "./commands.ts";

// The tests, a chain of commands, are bounded by each command's progress, not by a total.
describe("namereg dead-letters", { timeout: BACKSTOP_MS }, () => {
  let devnet: NamingDevnet;
  let database: TestDatabase;
  let indexer: Indexer;
  let env: NodeJS.ProcessEnv;
  let carolIssue: string;
  let garbage: string;
  beforeAll(async () => {
    ({ devnet, database, indexer } = await indexDemo("postgres"));
    // An event no code can decode: dead-lettered by the indexer itself.
    devnet.chain.injectEvents([
      {
        contractId: devnet.contracts.registry,
        topics: [xdr.ScVal.scvSymbol("ns_v1"), xdr.ScVal.scvBytes(Buffer.alloc(31))],
        value: xdr.ScVal.scvVoid(),
      },
    ]);
    devnet.closeLedger();
    await runUntilIdle(indexer);
    const [letter] = await database.db.select().from(deadLetters);
    garbage = letter?.eventId ?? "";
    // And one an older version failed: carol.plain's issue, as if it had never been projected.
    const node = nameNode("carol", "plain");
    const [issue] = await database.db
      .select()
      .from(events)
      .where(and(eq(events.subject, node), eq(events.type, "name_v1")));
    carolIssue = issue?.id ?? "";
    await database.db.delete(names).where(eq(names.node, node));
    await database.db.insert(deadLetters).values({
      eventId: carolIssue,
      contractId: issue?.contractId ?? "",
      ledger: issue?.ledger ?? 0,
      error: "name_v1: an old decoder's complaint",
    });
    env = {
      ...process.env,
      LOG_LEVEL: "silent",
      DATABASE_URL: database.url,
      RPC_URL: devnet.rpcUrl,
      NETWORK_PASSPHRASE: devnet.networkPassphrase,
      ...contractEnv(devnet),
    };
  }, 120_000);
  afterAll(async () => {
    await devnet?.stop();
    await database?.close();
  });

  const cli = (...args: string[]) => runCli(["dead-letters", ...args], env);
  /** The real binary: a process of its own, its exit code and streams as an operator's shell sees them. */
  const cliProcess = async (...args: string[]) => {
    const { code, stdout, stderr } = await runCliProcess(["dead-letters", ...args], env);
    return { code, stdout, stderr };
  };

  it("lists the unresolved letters and status counts them", async () => {
    const listed = await cli("list");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(garbage);
    expect(listed.stdout).toContain(carolIssue);
    expect((await readIndexerSnapshot(database.db)).deadLetters).toBe(2);
  });

  it("retries: projects what the current code can, and reports what still fails", async () => {
    expect(await cli("retry", carolIssue)).toMatchObject({
      code: 0,
      stdout: `${carolIssue} projected and resolved\n`,
    });
    const [carol] = await database.db
      .select()
      .from(names)
      .where(eq(names.node, nameNode("carol", "plain")));
    expect(carol).toMatchObject({ label: "carol", namespace: "plain", active: true });
    const [letter] = await database.db.select().from(deadLetters).where(eq(deadLetters.eventId, carolIssue));
    expect(letter?.resolution).toBe("retried: projected with the current code");

    const again = await cli("retry", garbage);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(new RegExp(`^${garbage} failed again: .*ns_v1`));
    expect((await readIndexerSnapshot(database.db)).deadLetters).toBe(1);
  });

  it("resolves by hand only with a reason, and lists it with --all", async () => {
    const refused = await cliProcess("resolve", garbage);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--reason");
    expect(await cli("resolve", garbage, "--reason", "junk injected by a test")).toMatchObject({ code: 0 });
    expect((await cli("list")).stdout).toBe("no unresolved dead letters\n");
    const all = (await cli("list", "--all")).stdout;
    expect(all).toContain(`resolved`);
    expect(all).toContain("by operator: junk injected by a test");
    expect((await readIndexerSnapshot(database.db)).deadLetters).toBe(0);
    // A recorded resolution is kept: resolving it again is refused, saying how it was resolved.
    const again = await cli("resolve", garbage, "--reason", "second thoughts");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("is resolved already (by operator: junk injected by a test)");
    expect((await cli("list", "--all")).stdout).not.toContain("second thoughts");
  });
});

describe("retrying a dead letter in process on PGlite", () => {
  it("projects the archived event again and resolves its letter", async () => {
    const { devnet, database, indexer } = await indexDemo("pglite");
    try {
      const node = nameNode("carol", "plain");
      const [issue] = await database.db
        .select()
        .from(events)
        .where(and(eq(events.subject, node), eq(events.type, "name_v1")));
      if (issue === undefined) throw new Error("carol.plain's issue is not archived");
      await database.db.delete(names).where(eq(names.node, node));
      await database.db
        .insert(deadLetters)
        .values({ eventId: issue.id, contractId: issue.contractId, ledger: issue.ledger, error: "old" });
      expect(await indexer.retryDeadLetter(issue.id)).toEqual({ resolved: true, error: null });
      const [carol] = await database.db.select().from(names).where(eq(names.node, node));
      expect(carol).toMatchObject({ holder: expect.any(String), active: true });
      await expect(indexer.retryDeadLetter(issue.id)).rejects.toThrow(/resolved already/);
    } finally {
      await devnet.stop();
      await database.close();
    }
  });
});
