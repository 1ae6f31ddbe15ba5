// The claim-fee credit routes answer one code for every malformed address — 400 bad_address with the detail
// every address route gives — before anything is read from the chain: a lower-case G…, an M… (muxed) address,
// one over 64 characters, a C… with a bad checksum.
import { Keypair } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../../test/fixtures/database.ts";
import { type App, buildApp } from "../../app.ts";

const ACCOUNT = Keypair.random().publicKey();
const MUXED = "MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVAAAAAAAAAAAAAJLK";
const MALFORMED = [
  ACCOUNT.toLowerCase(),
  MUXED,
  `${ACCOUNT}${"A".repeat(20)}`,
  `C${ACCOUNT.slice(1)}`,
  "GNOTANADDRESS",
];

describe("claim-fee credit: malformed addresses", () => {
  let database: TestDatabase;
  let app: App;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    app = await buildApp({ config: testConfig(), db: database, redis: null });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const expected = {
    status: 400,
    body: {
      error: "bad_address",
      detail: "address: must be a Stellar account (G…) or contract (C…) address",
    },
  };

  it("answers 400 bad_address for each, on the read and on the prepare", async () => {
    expect(MUXED.length).toBeGreaterThan(64);
    for (const address of MALFORMED) {
      const read = await app.inject({ url: `/v1/claim-fee/credit/${address}` });
      expect({ address, status: read.statusCode, body: read.json() }).toEqual({ address, ...expected });
      const prepare = await app.inject({
        method: "POST",
        url: `/v1/claim-fee/credit/${address}/prepare`,
        payload: { source: ACCOUNT },
      });
      expect({ address, status: prepare.statusCode, body: prepare.json() }).toEqual({ address, ...expected });
    }
  });
});
