// The client works in a browser: the package's own browser.js (built here in memory with the options
// scripts/build.ts publishes it with) has no `node:` import, and, run in a fresh V8 context holding only what a browser window offers (fetch, Request, Response, URL,
// TextEncoder, crypto…), resolves through a fake fetch and returns a typed error the same way it does in Node.
import { createContext, runInContext } from "node:vm";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { browserBuild } from "../scripts/build-options.ts";

async function bundle(format: "esm" | "iife"): Promise<string> {
  // iife only to reach the exports from a vm context (which runs scripts, not modules); otherwise as published.
  const result = await build({
    ...browserBuild,
    format,
    globalName: "namereg",
    sourcemap: false,
    outdir: "/nowhere",
    write: false,
    logLevel: "silent",
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error("esbuild wrote nothing");
  return output.text;
}

describe("the browser bundle", () => {
  it("has no node: imports", async () => {
    const text = await bundle("esm");
    expect(text.length).toBeGreaterThan(10_000);
    expect(text).not.toMatch(/from\s*["']node:|require\(["']node:|import\(["']node:/);
  });

  it("runs in a browser-like context with a fake fetch and returns typed results", async () => {
    const text = await bundle("iife");
    const fetch = async (input: Request) => {
      const path = new URL(input.url).pathname;
      const [status, body] =
        path === "/v1/resolve/acme/alice"
          ? [
              200,
              {
                name: "alice.acme",
                account: "GA",
                ownership: "permanent",
                storage: "live",
                expires_at: null,
                ledger: 1,
              },
            ]
          : [404, { error: "name_not_found", name: "nobody.acme" }];
      return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    };
    const window: Record<string, unknown> = {
      fetch,
      Request,
      Response,
      Headers,
      URL,
      URLSearchParams,
      TextEncoder,
      TextDecoder,
      AbortController,
      crypto: globalThis.crypto,
      console,
      setTimeout,
      clearTimeout,
      queueMicrotask,
      Promise,
    };
    window.window = window;
    window.self = window;
    window.globalThis = window;
    const context = createContext(window);
    runInContext(text, context);
    const client = (context as { namereg: typeof import("./index.ts") }).namereg;
    const api = client.createApi({ baseUrl: "https://names.example.com" });
    const answer = await client.resolve(api, "alice.acme");
    expect(answer.account).toBe("GA");
    const error = (await client.resolve(api, "nobody.acme").catch((e: unknown) => e)) as InstanceType<
      typeof client.NameregError
    >;
    // The bundle's own class (another realm): checked by its shape and by the bundle's instanceof.
    expect(error instanceof client.NameregError).toBe(true);
    expect({ status: error.status, code: error.code }).toEqual({ status: 404, code: "name_not_found" });
  });
});
