// The browser bundle in a real browser: Debian's Chromium (playwright-core) loads browser.js, built with the options
// scripts/build.ts publishes it with, from a local http server into a page that has only what a browser has (no
// Node `Buffer`, no polyfill), and runs what a wallet runs before signing: the holder-call helpers, which encode
// their arguments with @namereg/protocol's codecs (label bytes, node hex), and verifyPrepared on a prepared XDR
// built here in Node with the SDK, once for the call asked for and once for another value; and verifyWebhook on a
// delivery signed here by the reference implementation (standardwebhooks).
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { nameNode, ResolverFns } from "@namereg/protocol";
import { Account, Keypair, Operation, StrKey, TransactionBuilder, type xdr } from "@stellar/stellar-sdk";
import { build } from "esbuild";
import { type Browser, chromium, type Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserBuild } from "../scripts/build-options.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const PASSPHRASE = "Test SDF Network ; September 2015";
const WALLET = Keypair.random().publicKey();
const CONTRACT = StrKey.encodeContract(new Uint8Array(32).fill(7));

function call(fn: string, args: xdr.ScVal[]): string {
  return new TransactionBuilder(new Account(WALLET, "7"), { fee: "100000", networkPassphrase: PASSPHRASE })
    .addOperation(Operation.invokeContractFunction({ contract: CONTRACT, function: fn, args }))
    .setTimeout(900)
    .build()
    .toXDR();
}

const setBio = call(
  "set_text",
  ResolverFns.set_text.encodeArgs({ node: nameNode("alice", "acme"), key: "bio", value: "hi" }),
);

// The page imports the bundle as an app would (a module script) and hands its exports to the test.
const PAGE =
  '<!doctype html><title>wallet</title><script type="module">import * as namereg from "/browser.js"; window.namereg = namereg;</script>';

/** What the page reports back from one setTextRecord run. */
interface Outcome {
  readonly result: string;
  readonly paths: string[];
  readonly signed: string[];
}

// Runs in the page: imports the bundle as a page would, with a fake API answering prepare with `prepared`.
async function setTextInPage(page: Page, value: string): Promise<Outcome> {
  return page.evaluate(
    async ({ value, prepared, passphrase, wallet, contract }) => {
      const client = (window as unknown as { namereg: typeof import("./index.ts") }).namereg;
      const paths: string[] = [];
      const signed: string[] = [];
      // openapi-fetch calls fetch with one Request.
      const fetch = async (input: RequestInfo | URL) => {
        const path = new URL((input as Request).url).pathname;
        paths.push(path);
        const body =
          path === "/records/prepare"
            ? { ok: true, xdr: prepared, network: passphrase, contractId: contract }
            : { ok: true, txHash: "ab".repeat(32), ledger: 9 };
        return new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
      };
      const api = client.createApi({ baseUrl: "https://names.example.com", fetch });
      const sign = {
        networkPassphrase: passphrase,
        account: wallet,
        signer: async (envelope: string) => {
          signed.push(envelope);
          return `SIGNED(${envelope})`;
        },
      };
      try {
        const submitted = await client.setTextRecord(api, { name: "alice.acme", key: "bio", value }, sign);
        return { result: `submitted ${submitted.txHash}`, paths, signed };
      } catch (error) {
        const reason = client.isNameregError(error, "prepared_transaction_rejected")
          ? `rejected ${error.reason}`
          : `threw ${String(error)}`;
        return { result: reason, paths, signed };
      }
    },
    { value, prepared: setBio, passphrase: PASSPHRASE, wallet: WALLET, contract: CONTRACT },
  );
}

describe("the browser bundle in Chromium", () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    // Not a skip: a machine without the browser cannot vouch for the bundle, so the suite fails and says why.
    if (!existsSync(CHROMIUM))
      throw new Error(
        `Chromium not found at ${CHROMIUM}: install it (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH`,
      );
    const result = await build({ ...browserBuild, sourcemap: false, outdir: "/nowhere", write: false });
    const bundle = result.outputFiles.find((file) => file.path.endsWith("/browser.js"))?.text;
    if (bundle === undefined) throw new Error("esbuild wrote no browser.js");
    server = createServer((request, response) => {
      const [type, body] = request.url === "/browser.js" ? ["text/javascript", bundle] : ["text/html", PAGE];
      response.writeHead(200, { "content-type": type }).end(body);
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    page = await browser.newPage();
    page.on("pageerror", (error) => pageErrors.push(String(error)));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => "namereg" in window);
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => server?.close(done));
  });

  it("has no Node Buffer to lean on", async () => {
    expect(await page.evaluate(() => typeof (globalThis as { Buffer?: unknown }).Buffer)).toBe("undefined");
  });

  it("encodes a holder call and signs the prepared XDR that is exactly that call", async () => {
    expect(await setTextInPage(page, "hi")).toEqual({
      result: `submitted ${"ab".repeat(32)}`,
      paths: ["/records/prepare", "/records/submit"],
      signed: [setBio],
    });
  });

  it("verifies a webhook delivery the reference implementation signed, and refuses it under another secret", async () => {
    const secret = `whsec_${btoa("k".repeat(32))}`;
    const body = JSON.stringify({ type: "name.issued", timestamp: "2026-05-01T00:00:00.000Z", data: {} });
    const at = new Date("2026-05-01T00:00:10.000Z");
    const headers = {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(at.getTime() / 1000),
      "webhook-signature": new Webhook(secret).sign("msg_1", at, body),
    };
    const outcome = await page.evaluate(
      async ({ headers, body, secret, now }) => {
        const client = (window as unknown as { namereg: typeof import("./index.ts") }).namereg;
        const check = (key: string) =>
          client.verifyWebhook(headers, body, key, { now: new Date(now) }).then(
            (event) => `accepted ${event.type}`,
            (error: { reason?: string }) => `rejected ${error.reason ?? String(error)}`,
          );
        return [await check(secret), await check(`whsec_${btoa("x".repeat(32))}`)];
      },
      { headers, body, secret, now: at.toISOString() },
    );
    expect(outcome).toEqual(["accepted name.issued", "rejected no_matching_signature"]);
  });

  it("refuses, unsigned, a prepared XDR that writes another value", async () => {
    expect(await setTextInPage(page, "bye")).toEqual({
      result: "rejected arguments_mismatch",
      paths: ["/records/prepare"],
      signed: [],
    });
    expect(pageErrors).toEqual([]);
  });
});
