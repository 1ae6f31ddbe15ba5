// GET /v1/events?txHash= stays a point read at scale: on PostgreSQL with 100,000 archived events, the planner reads
// one transaction's events from events_tx_hash_idx (no sequential scan, no sort), and the route answers exactly
// that transaction's events, in chain order, whatever case the hash is given in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../../test/fixtures/database.ts";
import { analyzeEveryRow } from "../../../../test/fixtures/exact-statistics.ts";
import { type App, buildApp } from "../../app.ts";
import { eventsPage } from "./queries.ts";

const EVENTS = 100_000;
/** Events per transaction in the bulk archive. */
const PER_TX = 4;

/** The bulk archive's transaction hash number `n` (64 hex). */
const txOf = (n: number) => `${"0".repeat(56)}${n.toString(16).padStart(8, "0")}`;

describe("the archive by transaction on postgres", () => {
  let database: TestDatabase;
  let app: App;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    // Set-based: event ids in chain order (`%019d-%010d`), four events per transaction.
    await database.query(
      `insert into events (id, contract_id, ledger, tx_hash, transaction_index, operation_index,
                           in_successful_contract_call, topics, value, type)
       select lpad(i::text, 19, '0') || '-' || lpad('0', 10, '0'), 'CCONTRACT', i / 100 + 1,
              lpad(to_hex(i / $2::int), 64, '0'), 1, 0, true, '[]'::jsonb, 'AAAAAQ==', 'name_v1'
       from generate_series(1, $1::int) as i`,
      [EVENTS, PER_TX],
    );
    // Statistics of every row, not of a random sample: the same plan every run (test/fixtures/exact-statistics.ts).
    await analyzeEveryRow(database.url, ["events"], EVENTS);
    app = await buildApp({ config: testConfig(), db: database, redis: null });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  async function plan(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string> {
    const { sql, params } = query.toSQL();
    const rows = await database.query<{ "QUERY PLAN": string }>(`explain ${sql}`, params);
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  }

  it("reads a transaction's events from events_tx_hash_idx, also after a cursor", async () => {
    for (const after of [undefined, `${"0".repeat(19)}-${"0".repeat(10)}`]) {
      const text = await plan(eventsPage(database.replica, { txHash: txOf(1234) }, after, 101));
      expect(text).toContain("events_tx_hash_idx");
      expect(text).not.toMatch(/Seq Scan on events/);
      expect(text).not.toMatch(/\bSort\b/);
    }
  });

  it("answers exactly the transaction's events in chain order, the hash in either case", async () => {
    const ids = [4936, 4937, 4938, 4939].map((i) => `${String(i).padStart(19, "0")}-${"0".repeat(10)}`);
    for (const hash of [txOf(1234), txOf(1234).toUpperCase()]) {
      const response = await app.inject({ url: `/v1/events?txHash=${hash}` });
      expect(response.statusCode).toBe(200);
      const body = response.json() as { events: { id: string; txHash: string }[]; hasMore: boolean };
      expect(body.events.map((e) => e.id)).toEqual(ids);
      expect(body.events.every((e) => e.txHash === txOf(1234))).toBe(true);
      expect(body.hasMore).toBe(false);
    }
  });
});
