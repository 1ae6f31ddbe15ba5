// The console in a real browser: Debian's Chromium driven by playwright-core against an app wired as `namereg dev`
// wires it (the demo devnet, indexed; live reads, prepare and submit over the devnet's RPC; the Demo wallet with the
// demo accounts of runtime/commands/dev.ts). A person signs in with the Demo wallet as alice, the holder of
// alice.acme (subnames are the parent holder's to create: docs/api.md, docs/contracts.md "Registrar"), creates a
// subname by reviewing the transaction in words and signing it, and removes it again; each result is checked through
// the API and on the chain itself. axe-core finds no serious or critical violation, no page logs an error, and
// nothing is fetched from another origin. Then `namereg serve` (the command, in this process): no Demo wallet, on the page or at
// its address.
import { demoKeypair, Wallet } from "@namereg/devnet";
import { LookupFns, nameNode, RegistrarFns, ResolverFns } from "@namereg/protocol";
import {
  type DemoApp,
  freePort,
  type IndexedDemoChain,
  listenDemoApp,
  runCli,
  startDemoChain,
  stopDemoChain,
} from "@namereg/server/testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./fixtures/browser.ts";
import { termOf } from "./fixtures/review.ts";
import { signInAs as signInWith, signOut as signOutOf } from "./fixtures/sign-in.ts";

/**
 * This app runs without the marketplace: the namespace page's listing read is refused (409 market_disabled), which
 * the page states as a fact and Chromium logs as a failed load.
 */
const MARKET_OFF = ["/v1/market/listings"];
/**
 * Nor billing: the owner console's billing read is refused (409 billing_disabled), which it says in words; so is its
 * seller's read (409 market_disabled).
 */
const CONSOLE_OFF = [...MARKET_OFF, "/console/billing", "/console/market/listings"];

describe("the console in Chromium, with the Demo wallet of a dev app", () => {
  let chain: IndexedDemoChain;
  let dev: DemoApp;
  let session: BrowserSession;
  let page: Page;
  let base: string;
  let wallet: Wallet;
  const alice = demoKeypair("alice").publicKey();
  const bob = demoKeypair("bob").publicKey();

  beforeAll(async () => {
    session = await openBrowser({ prefix: "wallet-" });
    page = session.page;
    chain = await startDemoChain();
    const { devnet } = chain;
    wallet = new Wallet({ rpcUrl: devnet.rpcUrl, networkPassphrase: devnet.networkPassphrase });
    dev = await listenDemoApp(chain);
    base = dev.base;
  }, 180_000);

  afterAll(async () => {
    await session?.close();
    await dev?.app.close();
    await stopDemoChain(chain);
  });

  beforeEach(async () => {
    // Each test starts signed out, whatever the one before it left (the session lives in sessionStorage); each
    // then opens its page, which reads the storage afresh.
    if (page.url().startsWith(base)) await page.evaluate(() => sessionStorage.clear());
    session.reset();
  });

  /** axe-core at phone width and at 1280 px, nothing wider than the screen, nothing logged but `refusals`. */
  const check = (name: string, refusals: readonly string[] = [], p: Page = page) =>
    session.check(name, { refusals, page: p });

  const focused = (p: Page = page) =>
    p.evaluate(() => {
      const active = document.activeElement;
      return active === null ? "" : (active as HTMLElement).innerText.trim();
    });

  const signInAs = (role: string) => signInWith(page, role);
  const signOut = () => signOutOf(page);

  /** The child as the registrar contract itself stores it, and what the lookup contract resolves its name to. */
  async function onChain(child: string) {
    const { registrar } = chain.devnet.demo?.namespaces.acme ?? { registrar: "" };
    const stored = await wallet.read(alice, registrar, RegistrarFns.subname, { label: "alice", child });
    const resolved = await wallet.read(alice, chain.devnet.contracts.lookup, LookupFns.lookup, {
      name: `${child}.alice.acme`,
    });
    return { stored, resolved };
  }

  const lines = (text: string) => text.split("\n").filter((line) => line.trim() !== "");

  const subnameFromApi = async (child: string) =>
    (await dev.app.inject({ url: `/v1/subnames/acme/alice/${child}` })).json() as {
      record: { exists: boolean; active: boolean; address: string } | null;
    };

  it("as alice, the holder of alice.acme, creates a subname with the Demo wallet and removes it again", async () => {
    await page.goto(`${base}/name/alice.acme`);
    await page.locator("table", { has: page.locator("caption", { hasText: "Subnames" }) }).waitFor();
    // Before signing in, the page says who may change subnames and offers no controls.
    await page.getByText("The holder of alice.acme can create and remove its subnames").waitFor();
    expect(await page.getByRole("button", { name: "Create subname" }).count()).toBe(0);

    await signInAs("alice");
    const who = page.getByRole("region", { name: "Wallet session" }).getByRole("link");
    expect(await who.getAttribute("href")).toBe(`/account/${alice}`);
    expect(await who.innerText()).toBe(`${alice.slice(0, 4)}…${alice.slice(-4)}`);
    expect(await page.getByRole("region", { name: "Wallet session" }).innerText()).toContain(
      "Demo wallet (alice)",
    );
    // Focus moved from the closed dialog to who is signed in.
    expect(await focused()).toBe(await who.innerText());
    await check("signed in as alice");

    // Create shop.alice.acme paying to bob: the review says what will be signed, from the verified envelope. The
    // form opens in place, by its button.
    await page.getByRole("button", { name: "Create a subname" }).click();
    await page.getByLabel("New subname").fill("shop");
    await page.getByLabel("Pays to").fill(bob);
    await page.getByRole("button", { name: "Create subname" }).click();
    const review = page.getByRole("region", { name: "Review: Create subname shop.alice.acme" });
    await review.waitFor();
    expect(await focused()).toBe("Review: Create subname shop.alice.acme");
    const term = termOf(review);
    expect(lines(await term("What it does"))).toEqual([
      `Create subname shop.alice.acme pointing to ${bob}.`,
      "Parent alice.acme at generation 1; a first creation of this subname.",
    ]);
    const registrar = chain.devnet.demo?.namespaces.acme.registrar;
    expect(await term("Contract")).toBe("the registrar of namespace acme");
    expect(await term("Contract id")).toBe(registrar);
    expect(await term("Function")).toBe("create_subname");
    expect(await term("Network")).toBe(`a local network (“${chain.devnet.networkPassphrase}”)`);
    expect(await term("Signed by")).toBe(alice);
    expect(await term("Fee (at most)")).toMatch(/^0\.\d+ XLM$/);
    const until = Date.parse(await term("Valid until (UTC)"));
    expect(until - Date.now()).toBeGreaterThan(5 * 60_000);
    expect(until - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    await check("review of a subname creation");

    await review.getByRole("button", { name: "Sign with Demo wallet (alice)" }).click();
    const done = page.getByRole("status").filter({ hasText: "Done: Create subname shop.alice.acme." });
    await done.waitFor();
    const [said, hash] = lines(await done.innerText());
    expect(said).toMatch(/^Done: Create subname shop\.alice\.acme\. Included in ledger \d+\.$/);
    expect(hash).toMatch(/^Transaction [0-9a-f]{64}$/);
    // The hash is a link to the transaction's page.
    const txHash = hash?.slice("Transaction ".length) ?? "";
    expect(await done.getByRole("link", { name: txHash }).getAttribute("href")).toBe(`/tx/${txHash}`);
    // The result takes the focus, for a screen reader to read it.
    expect(await focused()).toBe(await done.innerText());
    // The API (a live read of the registrar) and the chain itself agree: the subname pays to bob.
    expect((await subnameFromApi("shop")).record).toMatchObject({ exists: true, active: true, address: bob });
    const created = await onChain("shop");
    expect(created.stored).toMatchObject({ exists: true, address: bob });
    expect(created.resolved?.address).toBe(bob);
    // The page read its subnames again: the new one is listed, and may be removed.
    const listed = page.locator("table", { has: page.locator("caption", { hasText: "Subnames" }) });
    await listed.locator("tr", { hasText: "shop.alice.acme" }).waitFor();
    expect(await listed.locator("tr", { hasText: "shop.alice.acme" }).locator("td").nth(1).innerText()).toBe(
      "active",
    );
    await check("after creating a subname");
    await page.getByRole("button", { name: "Remove shop.alice.acme" }).click();
    const removal = page.getByRole("region", { name: "Review: Remove subname shop.alice.acme" });
    await removal.waitFor();
    const does = await removal.locator("dt", { hasText: "What it does" }).locator("+ dd").innerText();
    expect(lines(does)).toEqual([
      "Remove subname shop.alice.acme: it stops resolving.",
      "Parent alice.acme at generation 1; the subname's generation 1.",
    ]);
    expect(await termOf(removal)("Function")).toBe("remove_subname");
    await removal.getByRole("button", { name: "Sign with Demo wallet (alice)" }).click();
    await page.getByRole("status").filter({ hasText: "Done: Remove subname shop.alice.acme." }).waitFor();
    expect((await subnameFromApi("shop")).record).toMatchObject({ exists: false, active: false });
    const removed = await onChain("shop");
    expect(removed.stored).toMatchObject({ exists: false });
    expect(removed.resolved).toBeNull();
    await check("after removing a subname");
    await signOut();
  });

  it("says in words why a change was refused: a subname that exists already", async () => {
    await page.goto(`${base}/name/alice.acme`);
    await signInAs("alice");
    // alice.acme is already alice's display and primary name (the demo's): the page says so and offers neither.
    await page
      .getByText(
        /^Now: alice\.acme is the display name of G[A-Z2-7]{55} in acme\. alice\.acme is its primary name\.$/,
      )
      .waitFor();
    expect(await page.getByRole("button", { name: /^Make it your (display|primary) name$/ }).count()).toBe(0);
    await page.getByRole("button", { name: "Create a subname" }).click();
    await page.getByLabel("New subname").fill("pay");
    await page.getByRole("button", { name: "Create subname" }).click();
    const refused = page.locator('.action [data-code="name_taken"]');
    await refused.waitFor();
    expect(await refused.locator("p").first().innerText()).toBe("That name is already taken.");
    // Nothing was signed: the page refused at the prepare step, and says so where the focus now is.
    expect(await focused()).toContain("That name is already taken.");
    await check("a refused subname", ["/subnames/prepare"]);
    await signOut();
  });

  it("shows another account no subname controls, and signing out ends the session at the service", async () => {
    await page.goto(`${base}/name/alice.acme`);
    await signInAs("bob");
    await page.getByText("The holder of alice.acme can create and remove its subnames").waitFor();
    expect(await page.getByRole("button", { name: "Create subname" }).count()).toBe(0);
    const token = await page.evaluate(
      () => (JSON.parse(sessionStorage.getItem("namereg.session") ?? "{}") as { token?: string }).token,
    );
    const policy = () =>
      dev.app.inject({
        method: "POST",
        url: "/console/subname-policy/prepare",
        headers: { authorization: `Bearer ${token}`, "x-service-namespace": "acme" },
        payload: { namespace: "acme", policy: "enabled" },
      });
    // The session is live (bob is signed in, and not acme's owner) …
    expect((await policy()).json()).toMatchObject({ error: "not_namespace_owner" });
    await signOut();
    // … and revoked once he signs out.
    expect((await policy()).json()).toMatchObject({ error: "unauthorized" });
    expect(await page.evaluate(() => sessionStorage.getItem("namereg.session"))).toBeNull();
  });

  it("offers the kit's browser wallets, says which are not installed, and fetches nothing from elsewhere", async () => {
    await page.goto(`${base}/`);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Sign in with a wallet" });
    await dialog.waitFor();
    // It opens on its title, so Tab walks the wallets from the top rather than jumping to Cancel.
    expect(await focused()).toBe("Sign in with a wallet");
    const wallets = dialog.getByRole("region", { name: "Browser wallets" });
    await wallets.getByRole("list").waitFor();
    // No extension in this Chromium: Freighter is offered as a link to get it; Albedo, a web wallet, can be used.
    expect(await wallets.innerText()).toContain("Freighter is not installed in this browser");
    expect(await wallets.getByRole("button", { name: "Albedo" }).count()).toBe(1);
    expect(await dialog.getByRole("group", { name: "Demo wallet (namereg dev only)" }).count()).toBe(1);
    await check("sign-in dialog");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await focused()).toBe("Sign in");
  });

  it("as alice sets alice.acme's bitcoin address and removes it again", async () => {
    const btc = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
    const acme = chain.devnet.demo?.namespaces.acme;
    const fromApi = async () =>
      (
        (await dev.app.inject({ url: "/v1/chain-address/acme/alice/bitcoin" })).json() as {
          address: string | null;
        }
      ).address;
    const fromChain = () =>
      wallet.read(alice, acme?.resolver ?? "", ResolverFns.chain_address, {
        node: nameNode("alice", "acme"),
        network: "bitcoin",
      });
    await page.goto(`${base}/name/alice.acme`);
    await signInAs("alice");
    const addresses = page.getByRole("region", { name: "Network addresses" });
    await addresses.getByText("bitcoin: none").waitFor();
    await addresses.getByRole("button", { name: "Edit the bitcoin address" }).click();
    await addresses.getByLabel("Address on bitcoin").fill(btc);
    await addresses.getByRole("button", { name: "Set address" }).click();
    const review = page.getByRole("region", { name: "Review: Set the bitcoin address of alice.acme" });
    await review.waitFor();
    const term = termOf(review);
    expect(await term("What it does")).toBe(`Set the bitcoin address of alice.acme to ${btc}.`);
    expect(await term("Contract")).toBe("the resolver of namespace acme");
    expect(await term("Contract id")).toBe(acme?.resolver);
    expect(await term("Function")).toBe("set_chain_address");
    await check("review of a network address");
    await review.getByRole("button", { name: "Sign with Demo wallet (alice)" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: "Done: Set the bitcoin address of alice.acme." })
      .waitFor();
    expect(await fromApi()).toBe(btc);
    expect(await fromChain()).toBe(btc);
    await addresses.getByText(`bitcoin: ${btc}`).waitFor();
    await addresses.getByRole("button", { name: "Remove the bitcoin address" }).click();
    const removal = page.getByRole("region", { name: "Review: Remove the bitcoin address of alice.acme" });
    await removal.getByRole("button", { name: "Sign with Demo wallet (alice)" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: "Done: Remove the bitcoin address of alice.acme." })
      .waitFor();
    expect(await fromApi()).toBeNull();
    expect(await fromChain()).toBeNull();
    await addresses.getByText("bitcoin: none").waitFor();
    await check("after removing a network address");
  });

  it("as alice sets a text record on alice.acme and removes it again", async () => {
    const acme = chain.devnet.demo?.namespaces.acme;
    const fromChain = () =>
      wallet.read(alice, acme?.resolver ?? "", ResolverFns.text, {
        node: nameNode("alice", "acme"),
        key: "twitter",
      });
    // The records route reads each value live, for the keys the mirror has seen: index what the chain did first.
    const fromApi = async () => {
      while (await chain.indexer.runOnce()) {}
      const answer = await dev.app.inject({ url: "/v1/records/acme/alice" });
      expect(answer.statusCode).toBe(200);
      return (answer.json() as { text: Record<string, string> }).text;
    };
    await page.goto(`${base}/name/alice.acme`);
    await signInAs("alice");
    const records = page.getByRole("region", { name: "Records", exact: true });
    await records.getByRole("button", { name: "Add a text record" }).click();
    await records.getByLabel("Key", { exact: true }).fill("twitter");
    await records.getByLabel("Value", { exact: true }).fill("@alice");
    await records.getByRole("button", { name: "Set text record" }).click();
    const review = page.getByRole("region", { name: "Review: Set text record twitter of alice.acme" });
    await review.waitFor();
    const term = termOf(review);
    expect(await term("What it does")).toBe("Set text record “twitter” of alice.acme to “@alice”.");
    expect(await term("Contract")).toBe("the resolver of namespace acme");
    expect(await term("Contract id")).toBe(acme?.resolver);
    expect(await term("Function")).toBe("set_text");
    expect(await term("Signed by")).toBe(alice);
    await check("review of a text record");
    await review.getByRole("button", { name: "Sign with Demo wallet (alice)" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: "Done: Set text record twitter of alice.acme." })
      .waitFor();
    expect(await fromChain()).toBe("@alice");
    expect((await fromApi()).twitter).toBe("@alice");

    // Read again (the session stays): the record is listed beside the form, with its remove button.
    await page.reload();
    await records.locator("tr", { hasText: "twitter" }).getByText("@alice").waitFor();
    await records.getByRole("button", { name: "Remove text record twitter" }).click();
    const removal = page.getByRole("region", { name: "Review: Remove text record twitter of alice.acme" });
    await removal.waitFor();
    expect(await removal.locator("dt", { hasText: "What it does" }).locator("+ dd").innerText()).toBe(
      "Remove text record “twitter” of alice.acme.",
    );
    await removal.getByRole("button", { name: "Sign with Demo wallet (alice)" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: "Done: Remove text record twitter of alice.acme." })
      .waitFor();
    expect(await fromChain()).toBeNull();
    expect((await fromApi()).twitter).toBeUndefined();
    await check("after removing a text record");
    await signOut();
  });

  it("as acme, the namespace's owner, changes the subname policy and the networks through the console, and back", async () => {
    const acme = chain.devnet.demo?.namespaces.acme;
    const apiPolicy = async () =>
      ((await dev.app.inject({ url: "/v1/subname-policy/acme" })).json() as { policy: string }).policy;
    const apiNetworks = async () =>
      ((await dev.app.inject({ url: "/v1/chain-policy/acme" })).json() as { networks: string[] }).networks;
    const owner = demoKeypair("acme").publicKey();
    await page.goto(`${base}/namespace/acme`);
    await signInAs("acme");
    const console_ = page.getByRole("region", { name: "Manage", exact: true });
    await console_.waitFor();
    // This service bills no one: the console's billing part says so, and offers no payment.
    const billing = console_.getByRole("region", { name: "Billing" });
    await billing.getByText("Billing is off on this service.").waitFor();
    expect(await billing.getByRole("button", { name: "Pay billing" }).count()).toBe(0);
    // Nor does it run the marketplace: nothing to sell here.
    const sale = console_.getByRole("region", { name: "Sell this namespace" });
    await sale.getByText("The marketplace is off on this service.").waitFor();
    expect(await sale.getByRole("button", { name: /^List acme/ }).count()).toBe(0);

    const changePolicy = async (to: string, words: string) => {
      // The choice reads as what it means; the review names the policy the call sets. The form opens by its Edit.
      await console_.getByRole("button", { name: "Edit the subname policy" }).click();
      await console_.getByRole("radio", { name: words, exact: false }).check();
      await console_.getByRole("button", { name: "Change subname policy" }).click();
      const review = page.getByRole("region", { name: `Review: Set the subname policy of acme to ${to}` });
      await review.waitFor();
      const term = termOf(review);
      expect(await term("What it does")).toBe(`Set the subname policy of namespace acme to ${to}: ${words}.`);
      expect(await term("Contract")).toBe("the registrar of namespace acme");
      expect(await term("Contract id")).toBe(acme?.registrar);
      expect(await term("Function")).toBe("set_subname_policy");
      expect(await term("Signed by")).toBe(owner);
      await review.getByRole("button", { name: "Sign with Demo wallet (acme)" }).click();
      await page
        .getByRole("status")
        .filter({ hasText: `Done: Set the subname policy of acme to ${to}.` })
        .waitFor();
    };
    await changePolicy("creation-disabled", "no new subnames; existing ones keep resolving");
    expect(await apiPolicy()).toBe("creation-disabled");
    const onChainPolicy = () => wallet.read(owner, acme?.registrar ?? "", RegistrarFns.subname_policy, {});
    expect((await onChainPolicy()).policy).toBe("creation_disabled");
    await console_.getByText("Now: no new subnames; existing ones keep resolving.").waitFor();
    await changePolicy("enabled", "holders may create and remove subnames of their names");
    expect(await apiPolicy()).toBe("enabled");
    expect((await onChainPolicy()).policy).toBe("enabled");
    await console_.getByText("Now: holders may create and remove subnames of their names.").waitFor();

    const changeNetworks = async (solana: boolean, lines_: string[]) => {
      await console_.getByRole("button", { name: "Edit the networks" }).click();
      await console_.getByRole("checkbox", { name: "solana" }).setChecked(solana);
      await console_.getByRole("button", { name: "Change networks" }).click();
      const review = page.getByRole("region", { name: "Review: Set the networks of acme" });
      await review.waitFor();
      const does = await review.locator("dt", { hasText: "What it does" }).locator("+ dd").innerText();
      expect(lines(does)).toEqual(lines_);
      expect(await termOf(review)("Function")).toBe("set_chain_policy");
      await check("review of a chain policy", CONSOLE_OFF);
      await review.getByRole("button", { name: "Sign with Demo wallet (acme)" }).click();
      await page.getByRole("status").filter({ hasText: "Done: Set the networks of acme." }).waitFor();
    };
    const onChainNetworks = () => wallet.read(owner, acme?.resolver ?? "", ResolverFns.chain_policy, {});
    await changeNetworks(true, [
      "Allow network addresses on ethereum, bitcoin, solana in namespace acme.",
      "Addresses on any other network stop resolving.",
    ]);
    expect(await apiNetworks()).toEqual(["ethereum", "bitcoin", "solana"]);
    expect(await onChainNetworks()).toEqual(["ethereum", "bitcoin", "solana"]);
    // What the owner reads before changing them again: the line says solana is in now.
    await console_.getByText("Names may carry addresses on: ethereum, bitcoin, solana.").waitFor();
    await changeNetworks(false, [
      "Allow network addresses on ethereum, bitcoin in namespace acme.",
      "Addresses on any other network stop resolving.",
    ]);
    expect(await apiNetworks()).toEqual(["ethereum", "bitcoin"]);
    expect(await onChainNetworks()).toEqual(["ethereum", "bitcoin"]);
    await console_.getByText("Names may carry addresses on: ethereum, bitcoin.").waitFor();
    await check("owner console", CONSOLE_OFF);
  });

  it("`namereg serve` has no Demo wallet: 404 at its address, and the page neither offers nor asks for it", async () => {
    const port = await freePort();
    const stop = new AbortController();
    let output = "";
    let listening: () => void = () => {};
    const listened = new Promise<void>((resolve) => {
      listening = resolve;
    });
    // The command in this process (a cold `namereg serve` process took up to a minute on a loaded machine); its
    // process entry keeps its own tests (runtime/serve-shutdown.integration.test.ts).
    const serve = runCli(
      ["serve"],
      {
        DATABASE_URL: "memory://",
        HOST: "127.0.0.1",
        PORT: String(port),
        SESSION_SECRET: "x".repeat(40),
        HOME_DOMAIN: "names.example.com",
        LOG_LEVEL: "info",
      },
      {
        stop: stop.signal,
        onOutput: (text) => {
          output += text;
          if (output.includes("API listening")) listening();
        },
      },
    );
    try {
      await Promise.race([
        listened,
        serve.then((run) => {
          throw new Error(`serve exited (${run.code}): ${output}`);
        }),
      ]);
      const served = `http://127.0.0.1:${port}`;
      const demo = await fetch(`${served}/dev/demo-wallet`);
      expect(demo.status).toBe(404);
      expect(await demo.json()).toMatchObject({ error: "not_found" });

      const other = await session.newPage();
      const asked: string[] = [];
      other.on("request", (request) => asked.push(new URL(request.url()).pathname));
      await other.goto(`${served}/`);
      await other.getByRole("button", { name: "Sign in", exact: true }).click();
      const dialog = other.getByRole("dialog", { name: "Sign in with a wallet" });
      await dialog.getByRole("region", { name: "Browser wallets" }).getByRole("list").waitFor();
      expect(await dialog.innerText()).not.toContain("Demo wallet");
      expect(asked.filter((path) => path.startsWith("/dev/"))).toEqual([]);
      await check("sign-in dialog of namereg serve", [], other);
      await other.close();
    } finally {
      stop.abort();
      expect((await serve).code).toBe(0);
    }
  });
});
