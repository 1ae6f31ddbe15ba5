import { Keypair } from "@stellar/stellar-sdk";
import { asc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/fixtures/database.ts";
import { sessions } from "../db/tables.ts";
import { openSession } from "./sessions.ts";

const issuer = { session: { secret: "s".repeat(40) }, homeDomain: "names.example" };

describe("session storage", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(async () => {
    await database.close();
  });

  it("drops sessions that expired when a new one opens, keeping live ones", async () => {
    const account = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 9)).publicKey();
    const t0 = new Date("2030-01-01T00:00:00Z");
    const short = await openSession(database, issuer, { kind: "wallet", account, now: t0, ttlSeconds: 60 });
    const long = await openSession(database, issuer, { kind: "wallet", account, now: t0, ttlSeconds: 3600 });
    const later = new Date(t0.getTime() + 120_000);
    const fresh = await openSession(database, issuer, {
      kind: "wallet",
      account,
      now: later,
      ttlSeconds: 60,
    });
    const ids = (
      await database.db.select({ id: sessions.id }).from(sessions).orderBy(asc(sessions.createdAt))
    ).map((r) => r.id);
    expect(ids).toEqual([long.session.id, fresh.session.id]);
    expect(ids).not.toContain(short.session.id);
  });
});
