// GET /v1/allocations on the indexed demo (newco announced, contested objected, winner awarded), on PGlite and
// PostgreSQL: every field of docs/api.md "GET /v1/allocations", grouping, the countdown computed at response time, and the hiding rules
// as the chain moves on (an objection dismissed, a claim withdrawn, a claim marked stuck).
import { demoKeypair, settlingWallet, type Wallet } from "@namereg/devnet";
import { AllocatorFns } from "@namereg/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { FEATURE_DATABASE_KINDS } from "../../../../test/fixtures/database.ts";
import { type IndexedDemoChain, indexDemo, runUntilIdle } from "../../../../test/fixtures/demo.ts";
import { claims, indexerState } from "../../../db/tables.ts";
import { type App, buildApp } from "../../app.ts";

const pk = (role: Parameters<typeof demoKeypair>[0]) => demoKeypair(role).publicKey();
const EVIDENCE = (label: string) => [
  { label: "Trademark registration", url: `https://evidence.example/${label}` },
];

interface Entry {
  id: string;
  namespace: string;
  state: string;
  deadline: string;
  remainingSeconds: number;
  elapsed: boolean;
  objections: unknown[];
}
interface Queue {
  ledger: number;
  pending: Entry[];
  objected: Entry[];
  awarded: Entry[];
}

describe.each(FEATURE_DATABASE_KINDS)("GET /v1/allocations on %s", (kind) => {
  let chain: IndexedDemoChain;
  let app: App;
  let wallet: Wallet;
  const apps: App[] = [];

  const appAt = async (now?: Date) => {
    const built = await buildApp({
      config: testConfig(),
      db: chain.database,
      redis: null,
      ...(now === undefined ? {} : { now: () => now }),
    });
    apps.push(built);
    return built;
  };
  const queue = async (target: App = app): Promise<Queue> => {
    const response = await target.inject({ url: "/v1/allocations" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    return response.json();
  };
  const names = (entries: Entry[]) => entries.map((e) => e.namespace);

  beforeAll(async () => {
    chain = await indexDemo(kind);
    app = await appAt();
    const net = chain.devnet;
    wallet = settlingWallet(net);
  }, 120_000);
  afterAll(async () => {
    for (const a of apps) await a.close();
    await chain?.database.close();
    await chain?.devnet.stop();
  });

  it("groups the demo's claims with every field of 2.7", async () => {
    const body = await queue();
    // The observed head, as /v1/status reports it (this app has no RPC: the indexer's observation).
    const [state] = await chain.database.db.select().from(indexerState);
    expect(body.ledger).toBe((await app.inject({ url: "/v1/status" })).json().ledger);
    expect(body.ledger).toBe(Math.max(state?.headLedger ?? 0, state?.processedLedger ?? 0));
    const ids = chain.devnet.demo?.claims;
    expect(body.pending).toEqual([
      {
        id: ids?.newco.toString(),
        namespace: "newco",
        claimant: pk("newco"),
        claimantAccount: pk("newco"),
        state: "announced",
        basis: ["trademark"],
        claimantResponse: null,
        evidence: EVIDENCE("newco"),
        announcedLedger: expect.any(Number),
        deadline: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        remainingSeconds: expect.any(Number),
        elapsed: false,
        awardedAt: null,
        objections: [],
      },
    ]);
    expect(body.pending[0]?.remainingSeconds).toBeGreaterThan(0);
    expect(body.objected).toEqual([
      expect.objectContaining({
        id: ids?.contested.toString(),
        namespace: "contested",
        state: "objected",
        objections: [{ objector: pk("objector"), basis: expect.any(Array), bondXlm: "10.0000000" }],
      }),
    ]);
    expect(body.awarded).toEqual([
      expect.objectContaining({
        id: ids?.winner.toString(),
        namespace: "winner",
        state: "awarded",
        basis: ["brand"],
        awardedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      }),
    ]);
  });

  it("computes the countdown when it answers, by the clock it is given", async () => {
    const [newco] = (await queue()).pending;
    expect(newco).toBeDefined();
    const deadline = Date.parse(newco?.deadline ?? "");
    // One hour before the deadline by a clock ahead of the chain: an hour remains.
    const later = await queue(await appAt(new Date(deadline - 3600_000)));
    const hourBefore = later.pending.find((e) => e.namespace === "newco");
    expect(hourBefore?.remainingSeconds).toBe(3600);
    expect(hourBefore?.elapsed).toBe(false);
    const after = await queue(await appAt(new Date(deadline + 1000)));
    expect(after.pending.find((e) => e.namespace === "newco")).toMatchObject({
      remainingSeconds: 0,
      elapsed: true,
    });
  });

  it("moves a claim whose last objection is dismissed back to pending, and hides withdrawn and stuck claims", async () => {
    const net = chain.devnet;
    const ids = net.demo?.claims;
    if (ids === undefined) throw new Error("demo manifest missing");
    await wallet.invoke(demoKeypair("admin"), net.contracts.allocator, AllocatorFns.dismiss_objection, {
      id: ids.contested,
      objector: pk("objector"),
    });
    await runUntilIdle(chain.indexer);
    let body = await queue();
    expect(names(body.objected)).toEqual([]);
    expect(names(body.pending).sort()).toEqual(["contested", "newco"]);
    expect(body.pending.find((e) => e.namespace === "contested")?.objections).toEqual([]);

    await wallet.invoke(demoKeypair("newco"), net.contracts.allocator, AllocatorFns.withdraw, {
      id: ids.newco,
    });
    await wallet.invoke(demoKeypair("admin"), net.contracts.allocator, AllocatorFns.mark_stuck, {
      id: ids.contested,
    });
    await runUntilIdle(chain.indexer);
    body = await queue();
    expect(names(body.pending)).toEqual([]);
    expect(names(body.objected)).toEqual([]);
    expect(names(body.awarded)).toEqual(["winner"]);
    // Hidden, not gone: the mirror still holds them.
    const rows = await chain.database.db.select().from(claims);
    expect(rows.map((c) => [c.label, c.state, c.feeOutcome]).sort()).toEqual([
      ["contested", "announced", "Stuck"],
      ["newco", "withdrawn", "Withdrawn"],
      ["winner", "awarded", "Awarded"],
    ]);
  });
});
