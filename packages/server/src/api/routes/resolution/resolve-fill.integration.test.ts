// Misses and re-reads of /v1/resolve answers (resolve-fill.ts), on both database kinds: the right answers land in
// the cache, misses of one event-loop turn and re-reads asked for together go to the database as one statement
// each, and a change notified while a batch is read keeps that batch out of the cache.
import { afterEach, beforeAll, expect, it } from "vitest";
import { withTestDatabases } from "../../../../test/fixtures/database.ts";
import { countStatements } from "../../../../test/fixtures/statements.ts";
import { ResolveCache } from "../../resolve-cache.ts";
import { resolveFill } from "./resolve-fill.ts";

const HOLDER = "GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7";
const node = (i: number) => i.toString(16).padStart(64, "0");

withTestDatabases((t) => {
  beforeAll(async () => {
    await t.db().query(
      `insert into namespaces (node, label, owner, registrar, method, allocated_ledger, tx_hash)
       values ($1, 'fill', $2, 'CREGISTRAR', 'reserved', 1, repeat('0', 64))`,
      [node(1000), HOLDER],
    );
    // n1, n2 and n3 resolve (n2 until 2100-01-01); n4 was reclaimed; n6's row makes no valid answer (ledger -1).
    await t.db().query(
      `insert into names (node, namespace, label, holder, address, expires_at, generation, active,
                          issued_ledger, issued_at, tx_hash, updated_ledger)
       select lpad(to_hex(i), 64, '0'), 'fill', 'n' || i, $1, $1,
              case when i = 2 then 4102444800 else null end, 1, i <> 4,
              case when i = 6 then -1 else 100 + i end, now(), repeat('a', 64), 100 + i
       from generate_series(1, 6) as i where i <> 5`,
      [HOLDER],
    );
  });
  let restore = () => {};
  afterEach(() => restore());

  it("reads a miss and stores its answer", async () => {
    const cache = new ResolveCache();
    const { fill } = resolveFill(t.db().db, cache);
    const entry = await fill({ namespace: "fill", label: "n2", name: "n2.fill", node: node(2) });
    expect(entry.kind).toBe("found");
    expect(cache.get(node(2))).toEqual(entry);
    expect(JSON.parse(entry.kind === "found" ? entry.body : "")).toEqual({
      name: "n2.fill",
      account: HOLDER,
      ownership: "expiring",
      storage: "live",
      expires_at: "2100-01-01T00:00:00.000Z",
      ledger: 102,
    });
  });

  it("reads the misses of one turn of the event loop in one statement", async () => {
    const cache = new ResolveCache();
    const { fill } = resolveFill(t.db().db, cache);
    const counter = countStatements(t.db().db, "= any(");
    restore = counter.restore;
    const ref = (i: number) => ({ namespace: "fill", label: `n${i}`, name: `n${i}.fill`, node: node(i) });
    const answers = await Promise.all([fill(ref(1)), fill(ref(2)), fill(ref(5))]);
    expect(counter.count()).toBe(1);
    expect(answers.map((answer) => answer.kind)).toEqual(["found", "found", "missing"]);
    expect(cache.get(node(5))).toEqual({ kind: "missing" });
    // A miss of a later turn is a statement of its own.
    await fill(ref(3));
    expect(counter.count()).toBe(2);
  });

  it("fails only the miss whose row makes no valid answer, not the others of its batch", async () => {
    const cache = new ResolveCache();
    const { fill } = resolveFill(t.db().db, cache);
    const ref = (i: number) => ({ namespace: "fill", label: `n${i}`, name: `n${i}.fill`, node: node(i) });
    const [bad, good] = await Promise.allSettled([fill(ref(6)), fill(ref(3))]);
    expect(bad?.status).toBe("rejected");
    expect(good?.status === "fulfilled" && good.value.kind).toBe("found");
    expect(cache.get(node(6))).toBeUndefined();
    expect(cache.get(node(3))?.kind).toBe("found");
  });

  it("re-reads names asked for together in one statement and stores each answer", async () => {
    const cache = new ResolveCache();
    const { refresh } = resolveFill(t.db().db, cache);
    const counter = countStatements(t.db().db, "= any(");
    restore = counter.restore;
    const answers = await Promise.all([
      refresh(node(1), "n1.fill"),
      refresh(node(3), "n3.fill"),
      refresh(node(4), "n4.fill"),
      refresh(node(5), "n5.fill"),
    ]);
    expect(counter.count()).toBe(1);
    expect(answers.map((answer) => answer.kind)).toEqual(["found", "found", "missing", "missing"]);
    const first = answers[0];
    expect(first?.kind === "found" && JSON.parse(first.body)).toMatchObject({
      name: "n1.fill",
      account: HOLDER,
      ownership: "revocable",
      ledger: 101,
    });
    expect(cache.get(node(1))).toEqual(first);
    expect(cache.get(node(3))?.kind).toBe("found");
    expect(cache.get(node(4))).toEqual({ kind: "missing" });
    expect(cache.size).toBe(4);
  });

  it("keeps a batch out of the cache when a change is notified while it is read", async () => {
    const cache = new ResolveCache();
    const { refresh } = resolveFill(t.db().db, cache);
    // A change to another name arrives as the batch's statement is sent (after the batch took its ticket).
    const counter = countStatements(t.db().db, "= any(", () => cache.invalidate([node(2)]));
    restore = counter.restore;
    const answers = await Promise.all([refresh(node(1), "n1.fill"), refresh(node(3), "n3.fill")]);
    expect(counter.count()).toBe(1);
    expect(answers.map((answer) => answer.kind)).toEqual(["found", "found"]);
    expect(cache.size).toBe(0);
  });
});
