// README.md's examples, run as written against the demo devnet and the listening service: each ```ts block that
// ends in `export { … }` is written out as a module, with the README's placeholders (the service's and the RPC's
// URLs, the network passphrase, the lookup contract and two secret keys) replaced by the live ones, imported, and
// its exports checked. The install step is what package.integration.test.ts does with the packed tarball.
import { readFile, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { DEMO_MEMO, demoKeypair } from "@namereg/devnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LiveService, startLiveService } from "../test/live-service.ts";

const alice = demoKeypair("alice");
const bob = demoKeypair("bob");

describe("packages/client/README.md", () => {
  let service: LiveService;
  let blocks: Map<string, string>;
  beforeAll(async () => {
    // Indexing the demo and starting the app: 70 s at worst measured on the shared two-core machine.
    service = await startLiveService();
    const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
    // Keyed by the heading of the section each runnable block is in.
    blocks = new Map();
    for (const section of readme.split(/^## /m).slice(1)) {
      const heading = section.slice(0, section.indexOf("\n"));
      for (const [, code = ""] of section.matchAll(/```ts\n([\s\S]*?)```/g)) {
        if (code.includes("\nexport {")) blocks.set(heading, code);
      }
    }
  }, 240_000);
  afterAll(async () => {
    await service?.close();
  });

  async function run<T>(heading: string): Promise<T> {
    const code = blocks.get(heading);
    if (code === undefined) throw new Error(`no runnable example under "## ${heading}"`);
    const source = code
      .replaceAll('"@namereg/client"', JSON.stringify(fileURLToPath(new URL("./index.ts", import.meta.url))))
      .replaceAll('"http://localhost:8080"', JSON.stringify(service.baseUrl))
      .replaceAll('"http://localhost:8000"', JSON.stringify(service.rpcUrl))
      .replaceAll("*localhost:8080", `*${service.homeDomain}`)
      .replaceAll('"Standalone Network ; February 2017"', JSON.stringify(service.networkPassphrase))
      .replaceAll('"CLOOKUP"', JSON.stringify(service.lookupId))
      .replaceAll('"SPAYER"', JSON.stringify(bob.secret()))
      .replaceAll('"SHOLDER"', JSON.stringify(alice.secret()));
    for (const placeholder of ["localhost:8080", "localhost:8000", "CLOOKUP", "SPAYER", "SHOLDER"])
      expect(source).not.toContain(placeholder);
    const file = fileURLToPath(
      new URL(`./readme-${blocks.size}-${process.pid}-${Date.now()}.tmp.ts`, import.meta.url),
    );
    await writeFile(file, source);
    try {
      return (await import(/* @vite-ignore */ file)) as T;
    } finally {
      await rm(file, { force: true });
    }
  }

  it("has the runnable examples this test knows", () => {
    expect([...blocks.keys()]).toEqual([
      "Resolve",
      "Resolve, verified against the chain, before paying",
      "Pay a federation address",
      "Prepare → verify → sign → submit",
    ]);
  });

  it("resolves a name, a subname, and gives the typed 404", async () => {
    const example = await run<{
      alice: { account: string };
      pay: { account: string };
      nobody: string | null;
    }>("Resolve");
    expect(example.alice.account).toBe(alice.publicKey());
    expect(example.pay.account).toMatch(/^G[A-Z2-7]{55}$/);
    expect(example.nobody).not.toBeNull();
  });

  it("resolves verified against the lookup contract", async () => {
    const example = await run<{
      payTo: { account: string; chain: { address: string; memo: string | null } };
      payChild: { account: string; chain: { address: string } };
    }>("Resolve, verified against the chain, before paying");
    expect(example.payTo.chain).toEqual({ address: alice.publicKey(), memo: DEMO_MEMO });
    expect(example.payChild.chain.address).toBe(example.payChild.account);
  });

  it("pays alice*acme: federation through the service URL and through the home domain, verified, then paid", async () => {
    const example = await run<{
      byNamespace: { destination: string; memo: { type: string; value: unknown }; name: string };
      byDomain: { destination: string; stellarAddress: string; name: string };
      paid: { status: string };
    }>("Pay a federation address");
    expect(example.byNamespace).toMatchObject({ name: "alice.acme", destination: alice.publicKey() });
    expect(example.byNamespace.memo).toMatchObject({ type: "text" });
    expect(String(example.byNamespace.memo.value)).toBe(DEMO_MEMO);
    expect(example.byDomain).toMatchObject({
      name: "alice.acme",
      destination: alice.publicKey(),
      stellarAddress: `alice.acme*${service.homeDomain}`,
    });
    expect(example.paid.status).toBe("SUCCESS");
  });

  it("prepares, verifies, signs and submits, with the helper and by hand", async () => {
    const example = await run<{ set: { ok: boolean }; removed: { ok: boolean } }>(
      "Prepare → verify → sign → submit",
    );
    expect(example.set).toMatchObject({ ok: true });
    expect(example.removed).toMatchObject({ ok: true });
  });
});
