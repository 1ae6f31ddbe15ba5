// resolveFederation's refusals and its error mapping, against a federation server on a loopback port: a malformed
// address and `label*namespace` without the service URL are refused before anything is asked; the server's 404 is
// a typed `not_found`; a text memo comes back as the SDK's Memo. (Both address forms against the real service,
// verified on chain and paid: readme.integration.test.ts.)
import { createServer, type Server } from "node:http";
import { Keypair } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveFederation } from "./federation.ts";

const alice = Keypair.random().publicKey();

describe("resolveFederation", () => {
  let server: Server;
  let serviceUrl: string;
  const asked: string[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://x");
      asked.push(`${url.pathname}?${url.searchParams}`);
      // Case-insensitive, as the service is.
      const found = url.searchParams.get("q")?.toLowerCase() === "alice*acme";
      response.writeHead(found ? 200 : 404, { "content-type": "application/json" });
      response.end(
        JSON.stringify(
          found
            ? { stellar_address: "alice*acme", account_id: alice, memo_type: "text", memo: "acme-alice" }
            : { error: "not_found" },
        ),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    serviceUrl = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("refuses a malformed address, and label*namespace without the service URL, before asking", async () => {
    for (const address of ["alice", "alice*", "*acme", "a*b*c"]) {
      await expect(resolveFederation(address, { serviceUrl })).rejects.toMatchObject({
        status: 400,
        code: "invalid_request",
      });
    }
    await expect(resolveFederation("alice*acme")).rejects.toMatchObject({
      status: 400,
      code: "invalid_request",
      detail: 'alice*acme: "acme" is a namespace, not a domain; pass serviceUrl (the namereg service\'s URL)',
    });
    expect(asked).toEqual([]);
  });

  it("asks <serviceUrl>/federation for label*namespace and gives the destination and text memo", async () => {
    const payment = await resolveFederation("Alice*ACME", { serviceUrl, allowHttp: true });
    expect(payment).toMatchObject({
      stellarAddress: "alice*acme",
      name: "alice.acme",
      destination: alice,
      chain: null,
    });
    expect(payment.memo.type).toBe("text");
    expect(String(payment.memo.value)).toBe("acme-alice");
    expect(asked.at(-1)).toBe("/federation?type=name&q=Alice*ACME");
  });

  it("turns the server's 404 into a typed not_found", async () => {
    await expect(resolveFederation("nobody*acme", { serviceUrl, allowHttp: true })).rejects.toMatchObject({
      status: 404,
      code: "not_found",
    });
  });
});
