// The public endpoint answers a browser as a public Stellar RPC does: a preflight for a cross-origin POST with
// the SDK's own headers is allowed, and the JSON-RPC answer carries Access-Control-Allow-Origin, so a page on
// another origin can read it (the web app checks a claim announcement against the chain this way).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Devnet, startDevnet } from "../devnet.ts";

describe("CORS on the devnet's public endpoint", () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({ closeIntervalMs: 0 });
  });
  afterAll(async () => devnet?.stop());

  it("allows a preflight for a POST from any origin with the headers the page asks for", async () => {
    const res = await fetch(devnet.rpcUrl, {
      method: "OPTIONS",
      headers: {
        origin: "http://127.0.0.1:8080",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,x-client-name,x-client-version",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("access-control-allow-headers")).toBe(
      "content-type,x-client-name,x-client-version",
    );
    expect(await res.text()).toBe("");
  });

  it("lets the page read a JSON-RPC answer, an error answer included", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getNetwork" });
    const res = await fetch(devnet.rpcUrl, {
      method: "POST",
      headers: { origin: "https://names.example", "content-type": "application/json" },
      body,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const answer = (await res.json()) as { result: { passphrase: string } };
    expect(answer.result.passphrase).toBe(devnet.networkPassphrase);

    const missing = await fetch(`${devnet.rpcUrl}/nothing`, { headers: { origin: "https://names.example" } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("access-control-allow-origin")).toBe("*");
  });
});
