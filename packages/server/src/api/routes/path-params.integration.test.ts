// The one rule for name segments, on every route that takes one: an upper-case segment answers exactly what its
// lower-case spelling answers, and a segment that lower-casing cannot make a label is 400 invalid_name with the
// same detail everywhere.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IndexedDemo, indexedDemo } from "../../../test/fixtures/demo.ts";
import type { App } from "../app.ts";
import { LABEL_RULE, NAME_RULE } from "./path-params.ts";

/** Each route with a segment spelled in upper case, its lower-case spelling, and one invalid spelling. */
const ROUTES: readonly { upper: string; lower: string; invalid: string; detail: string }[] = [
  {
    upper: "/v1/resolve/ACME/Alice",
    lower: "/v1/resolve/acme/alice",
    invalid: "/v1/resolve/acme/al_ice",
    detail: `label: ${LABEL_RULE}`,
  },
  {
    upper: "/v1/names/Acme/ALICE",
    lower: "/v1/names/acme/alice",
    invalid: "/v1/names/-acme/alice",
    detail: `namespace: ${LABEL_RULE}`,
  },
  {
    upper: "/v1/records/ACME/alice",
    lower: "/v1/records/acme/alice",
    invalid: "/v1/records/acme/alice-",
    detail: `label: ${LABEL_RULE}`,
  },
  {
    upper: "/v1/names/ACME/Alice/history",
    lower: "/v1/names/acme/alice/history",
    invalid: "/v1/names/acme/a.b/history",
    detail: `label: ${LABEL_RULE}`,
  },
  {
    upper: "/v1/namespaces/ACME",
    lower: "/v1/namespaces/acme",
    invalid: "/v1/namespaces/ac_me",
    detail: `namespace: ${LABEL_RULE}`,
  },
  {
    upper: "/v1/subname-policy/ACME",
    lower: "/v1/subname-policy/acme",
    invalid: "/v1/subname-policy/-",
    detail: `namespace: ${LABEL_RULE}`,
  },
  {
    upper: "/v1/subnames/ACME/Alice",
    lower: "/v1/subnames/acme/alice",
    invalid: "/v1/subnames/acme/al_ice",
    detail: `label: ${LABEL_RULE}`,
  },
  {
    upper: "/v1/subnames/ACME/Alice/PAY",
    lower: "/v1/subnames/acme/alice/pay",
    invalid: "/v1/subnames/acme/alice/p_y",
    detail: `child: ${LABEL_RULE}`,
  },
  {
    upper: "/v1/chain-policy/ACME",
    lower: "/v1/chain-policy/acme",
    invalid: "/v1/chain-policy/a_b",
    detail: `namespace: ${LABEL_RULE}`,
  },
  {
    upper: "/v1/chain-address/ACME/Alice/ethereum",
    lower: "/v1/chain-address/acme/alice/ethereum",
    invalid: "/v1/chain-address/acme/a.b.c/ethereum",
    detail: `name: ${NAME_RULE}`,
  },
  {
    upper: "/v1/claim-fee/ALICE",
    lower: "/v1/claim-fee/alice",
    invalid: "/v1/claim-fee/-alice",
    detail: `label: ${LABEL_RULE}`,
  },
];

describe("name segments on every route", () => {
  let demo: IndexedDemo;
  let app: App;
  beforeAll(async () => {
    demo = await indexedDemo("pglite");
    app = await demo.appAt();
  });
  afterAll(async () => {
    await demo?.close();
  });

  const get = async (url: string) => {
    const response = await app.inject({ url });
    return { statusCode: response.statusCode, body: response.json() };
  };

  for (const { upper, lower, invalid, detail } of ROUTES) {
    it(`${upper} answers as ${lower}; ${invalid} is invalid_name`, async () => {
      const expected = await get(lower);
      // Validation passed: whatever the route answers next (a record, or the chain being unreachable here).
      expect(expected.statusCode).not.toBe(400);
      expect(await get(upper)).toEqual(expected);
      expect(await get(invalid)).toEqual({ statusCode: 400, body: { error: "invalid_name", detail } });
    });
  }
});
