// A namespace whose registrar was built without the subname interface (docs/api.md "Subnames, network addresses and holder transactions": subnames_unsupported): every
// subname route answers 409 subnames_unsupported, on both databases, while its names resolve as usual.
import { demoKeypair, type NamingDevnet, namespaceWithoutSubnames } from "@namereg/devnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { FEATURE_DATABASE_KINDS, type TestDatabase } from "../../../../test/fixtures/database.ts";
import { indexDemo, runUntilIdle } from "../../../../test/fixtures/demo.ts";
import { ChainClient } from "../../../chain/chain-client.ts";
import { type App, buildApp } from "../../app.ts";

const owner = demoKeypair("newco");
const holder = demoKeypair("carol");

describe.each(FEATURE_DATABASE_KINDS)("a registrar without subnames (%s)", (kind) => {
  let devnet: NamingDevnet;
  let database: TestDatabase;
  let app: App;
  beforeAll(async () => {
    const indexed = await indexDemo(kind);
    ({ devnet, database } = indexed);
    await namespaceWithoutSubnames(devnet, { label: "basic", owner, name: "solo", holder });
    await runUntilIdle(indexed.indexer);
    app = await buildApp({
      config: testConfig(),
      db: database,
      redis: null,
      chainClient: new ChainClient(devnet.rpcUrl, devnet.networkPassphrase),
    });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await devnet?.stop();
    await database?.close();
  });

  const unsupported = { statusCode: 409, body: { error: "subnames_unsupported" } };
  const answer = async (url: string, payload?: object) => {
    const response = await app.inject(payload === undefined ? { url } : { method: "POST", url, payload });
    return { statusCode: response.statusCode, body: response.json() };
  };

  it("answers 409 subnames_unsupported on every subname route", async () => {
    expect(await answer("/v1/subname-policy/basic")).toEqual(unsupported);
    expect(await answer("/v1/subnames/basic/solo")).toEqual(unsupported);
    expect(await answer("/v1/subnames/basic/solo/pay")).toEqual(unsupported);
    expect(
      await answer("/subnames/prepare", {
        name: "pay.solo.basic",
        action: "create",
        parentGeneration: "1",
        generation: null,
        address: holder.publicKey(),
      }),
    ).toEqual(unsupported);
  });

  it("still resolves the namespace's names", async () => {
    expect(await answer("/v1/resolve/basic/solo")).toMatchObject({
      statusCode: 200,
      body: { name: "solo.basic", account: holder.publicKey() },
    });
  });
});
