// GET /v1/namespaces/{namespace}/names stays an index walk at scale: on PostgreSQL with 100,000 names, every page
// (the first and one after a cursor) is read from names_ns_label_pattern_idx in its order, with no sort and no
// sequential scan, and paging through a namespace returns each of its names once, in byte order.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../../test/fixtures/database.ts";
import { analyzeEveryRow } from "../../../../test/fixtures/exact-statistics.ts";
import { type App, buildApp } from "../../app.ts";
import { namesOfNamespace } from "./queries.ts";

const NAMES = 100_000;
const NAMESPACES = 7;

describe("a namespace's names on postgres", () => {
  let database: TestDatabase;
  let app: App;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    // Set-based: hex labels of 12 characters in namespaces bulk0…bulk6; every twentieth name reclaimed.
    await database.query(
      `insert into namespaces (node, label, owner, registrar, method, allocated_ledger, tx_hash)
       select md5('ns' || i), 'bulk' || i, 'GOWNER', 'CREGISTRAR', 'reserved', 1, md5('nstx' || i)
       from generate_series(0, $1::int - 1) as i`,
      [NAMESPACES],
    );
    await database.query(
      `insert into names (node, namespace, label, holder, address, expires_at, generation, active,
                          issued_ledger, tx_hash, updated_ledger)
       select md5(i::text) || md5('node' || i), 'bulk' || (i % $2::int), substr(md5(i::text), 1, 12),
              'GHOLDER', 'GHOLDER', null, 1, i % 20 <> 0, i, md5('tx' || i), i
       from generate_series(1, $1::int) as i`,
      [NAMES, NAMESPACES],
    );
    // Statistics of every row, not of a random sample: the same plan every run (test/fixtures/exact-statistics.ts).
    await analyzeEveryRow(database.url, ["names"], NAMES);
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

  it("reads each page from the (namespace, label text_pattern_ops) index in its order", async () => {
    for (const after of [undefined, "8", "c0ffee"]) {
      const text = await plan(namesOfNamespace(database.replica, "bulk3", after, 101));
      expect(text).toContain("names_ns_label_pattern_idx");
      expect(text).not.toMatch(/Seq Scan on names/);
      expect(text).not.toMatch(/\bSort\b/);
    }
  });

  it("pages through a namespace: every active name once, in byte order", async () => {
    const [count] = await database.query<{ n: string }>(
      "select count(*)::text as n from names where namespace = 'bulk3' and active",
    );
    const labels: string[] = [];
    let cursor: string | null = null;
    do {
      const after: string = cursor === null ? "" : `&cursor=${cursor}`;
      const response = await app.inject({ url: `/v1/namespaces/bulk3/names?limit=100${after}` });
      expect(response.statusCode).toBe(200);
      const body = response.json() as { names: { label: string }[]; nextCursor: string | null };
      labels.push(...body.names.map((n) => n.label));
      cursor = body.nextCursor;
    } while (cursor !== null);
    expect(labels.length).toBe(Number(count?.n));
    // Byte order (`-` < digits < letters): the order of the index, on every database.
    const sorted = [...labels].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(labels).toEqual(sorted);
    expect(new Set(labels).size).toBe(labels.length);
  }, 120_000);
});
