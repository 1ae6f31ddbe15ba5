// `claimant` in GET /v1/allocations (docs/api.md "GET /v1/allocations"): the claimant account's primary name when
// it has one — set, and a name it still holds, active and unexpired — else the account; `claimantAccount` is
// always the account. On the indexed demo (newco's claim), both databases.
import { demoKeypair } from "@namereg/devnet";
import { nameNode } from "@namereg/protocol";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEATURE_DATABASE_KINDS } from "../../../../test/fixtures/database.ts";
import { type IndexedDemo, indexedDemo } from "../../../../test/fixtures/demo.ts";
import { names, primaryNames } from "../../../db/tables.ts";

const NEWCO = demoKeypair("newco").publicKey();

describe.each(FEATURE_DATABASE_KINDS)("claimant of /v1/allocations on %s", (kind) => {
  let demo: IndexedDemo;
  beforeAll(async () => {
    demo = await indexedDemo(kind);
  });
  afterAll(async () => {
    await demo?.close();
  });

  const newcoEntry = async () => {
    const app = await demo.appAt();
    const body = (await app.inject({ url: "/v1/allocations" })).json() as Record<
      string,
      { claimant: string; claimantAccount: string }[]
    >;
    const all = [...(body.pending ?? []), ...(body.objected ?? []), ...(body.awarded ?? [])];
    const entry = all.find((e) => e.claimantAccount === NEWCO);
    if (entry === undefined) throw new Error("newco's claim is not in the queue");
    return { claimant: entry.claimant, claimantAccount: entry.claimantAccount };
  };

  it("is the account without a primary name, the primary name while held, the account again once not", async () => {
    expect(await newcoEntry()).toEqual({ claimant: NEWCO, claimantAccount: NEWCO });
    const db = demo.database.db;
    const node = nameNode("newco", "acme");
    await db.insert(names).values({
      node,
      namespace: "acme",
      label: "newco",
      holder: NEWCO,
      address: NEWCO,
      expiresAt: null,
      generation: 1n,
      active: true,
      issuedLedger: 1,
      issuedAt: null,
      txHash: "ab".repeat(32),
      updatedLedger: 1,
    });
    await db
      .insert(primaryNames)
      .values({ address: NEWCO, name: "newco.acme", ledger: 1, txHash: "ab".repeat(32) });
    expect(await newcoEntry()).toEqual({ claimant: "newco.acme", claimantAccount: NEWCO });
    // Transferred away: the primary record stays, but it is no longer newco's name.
    await db
      .update(names)
      .set({ holder: demoKeypair("alice").publicKey() })
      .where(eq(names.node, node));
    expect(await newcoEntry()).toEqual({ claimant: NEWCO, claimantAccount: NEWCO });
    // Back, but reclaimed.
    await db.update(names).set({ holder: NEWCO, active: false }).where(eq(names.node, node));
    expect(await newcoEntry()).toEqual({ claimant: NEWCO, claimantAccount: NEWCO });
  });
});
