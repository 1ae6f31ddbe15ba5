// Federation is forward resolution (wallets pay its answer), so it judges expiry as resolve does: by the later of
// the wall clock and the latest chain time (docs/api.md "Expiry"). With the wall clock behind the chain, a name
// resolve answers 404 name_expired is 404 not_found here too, in both address forms.
import { demoKeypair } from "@namereg/devnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEATURE_DATABASE_KINDS } from "../../../../test/fixtures/database.ts";
import type { IndexedDemo } from "../../../../test/fixtures/demo.ts";
import { demoWithWallClockBehindChain } from "../../../../test/fixtures/expiry-clock.ts";
import type { App } from "../../app.ts";

const bob = demoKeypair("bob").publicKey();

for (const kind of FEATURE_DATABASE_KINDS) {
  describe(`federation with the wall clock behind the chain on ${kind}`, () => {
    let demo: IndexedDemo;
    let app: App;

    beforeAll(async () => {
      ({ demo, app } = await demoWithWallClockBehindChain(kind, {
        HOME_DOMAIN: "names.example",
        PUBLIC_URL: "https://names.example",
      }));
    });
    afterAll(async () => {
      await demo?.close();
    });

    const get = async (url: string) => {
      const response = await app.inject({ url });
      return { statusCode: response.statusCode, body: response.json() };
    };

    it("answers not_found for a name that resolve answers name_expired", async () => {
      expect(await get("/v1/resolve/acme/old")).toEqual({
        statusCode: 404,
        body: { error: "name_expired", name: "old.acme" },
      });
      expect(await get("/federation?q=old*acme&type=name")).toEqual({
        statusCode: 404,
        body: { error: "not_found" },
      });
      expect(await get("/federation?q=old.acme*names.example&type=name")).toEqual({
        statusCode: 404,
        body: { error: "not_found" },
      });
      // A live name of the same holder still federates.
      expect(await get("/federation?q=bob*acme&type=name")).toEqual({
        statusCode: 200,
        body: { stellar_address: "bob*acme", account_id: bob },
      });
    });
  });
}
