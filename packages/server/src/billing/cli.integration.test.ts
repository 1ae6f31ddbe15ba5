// `namereg billing …` as an operator runs it, on the same PostgreSQL as the watcher: in this process through the
// command's own entry (test/fixtures/cli.ts), and once as the real binary, for its exit code and streams.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BillingHarness, demoPayers, startBillingHarness } from "../../test/fixtures/billing.ts";
import { runCli, runCliProcess } from "../../test/fixtures/cli.ts";
import { BACKSTOP_MS } from "../../test/fixtures/progress.ts";
import { billingActions, subscriptions } from "../db/tables.ts";

// The tests, a chain of commands, are bounded by each command's progress (a process run: runInGroup's step
// limit), not by a total.
describe("namereg billing", { timeout: BACKSTOP_MS }, () => {
  let h: BillingHarness;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    h = await startBillingHarness("postgres");
    env = {
      ...process.env,
      LOG_LEVEL: "silent",
      DATABASE_URL: h.database.url,
      RPC_URL: h.devnet.rpcUrl,
      NETWORK_PASSPHRASE: h.devnet.networkPassphrase,
      BILLING_ENABLED: "true",
      BILLING_ACCOUNT: h.billing.publicKey(),
      BILLING_PRICE_XLM: "10",
    };
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const cli = (...args: string[]) => runCli(["billing", ...args], env);
  /** The real binary: a process of its own, its exit code and streams as an operator's shell sees them. */
  const cliProcess = async (...args: string[]) => {
    const { code, stdout, stderr } = await runCliProcess(["billing", ...args], env);
    return { code, stdout, stderr };
  };

  it("lists quarantined payments, applies one with its reason, and refuses an action without one", async () => {
    expect(await cli("quarantined")).toMatchObject({ code: 0, stdout: "nothing is quarantined\n" });
    const paid = await h.pay(demoPayers().plain, "25", { text: "for plain" });
    await h.sync();
    const listed = await cli("quarantined");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(paid.id);
    expect(listed.stdout).toContain("25.0000000 XLM");
    expect(listed.stdout).toContain("memo_not_hash");

    const refused = await cli("apply", paid.id, "plain");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--reason");

    // A flag without its value (an empty `--periods $N`) is refused, not read as absent: the amount would
    // otherwise decide the periods the operator meant to set.
    const noPeriods = await cli("apply", paid.id, "plain", "--reason", "owner asked for 3", "--periods");
    expect(noPeriods).toMatchObject({
      code: 1,
      stderr: "namereg billing: --periods needs a whole number after it\n",
    });
    const flagAsReason = await cli("apply", paid.id, "plain", "--reason", "--periods", "3");
    expect(flagAsReason).toMatchObject({
      code: 1,
      stderr: "namereg billing: --reason needs a text after it\n",
    });
    expect((await cli("quarantined")).stdout).toContain(paid.id);

    const applied = await cli("apply", paid.id, "plain", "--reason", "owner wrote the label as text");
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(
      /applied to plain: 2 period\(s\), paid until .*; 5\.0000000 XLM bought nothing/,
    );
    const [row] = await h.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.namespace, "plain"));
    expect(row?.activeUntil).not.toBeNull();
    expect((await cli("subscriptions")).stdout).toMatch(/plain\s+active\s+paid until/);
  });

  it("suspends and resumes a namespace, recording the reason", async () => {
    // The label as an operator may type it.
    const suspended = await cli("suspend", "PLAIN", "--reason", "chargeback");
    expect(suspended).toMatchObject({ code: 0, stdout: "plain is now suspended\n" });
    // A second suspend changes nothing and says so, recording no action.
    const twice = await cliProcess("suspend", "plain", "--reason", "again");
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain("plain is suspended already; nothing was changed");
    expect((await cli("subscriptions")).stdout).toMatch(/plain\s+suspended .*\(chargeback\)/);
    expect(await cli("resume", "plain", "--reason", "settled")).toMatchObject({
      code: 0,
      stdout: "plain is now active\n",
    });
    const actions = await h.database.db
      .select()
      .from(billingActions)
      .where(eq(billingActions.namespace, "plain"));
    expect(actions.map((a) => [a.action, a.reason])).toEqual([
      ["apply", "owner wrote the label as text"],
      ["suspend", "chargeback"],
      ["resume", "settled"],
    ]);
    expect(await cli("suspend", "nosuchns", "--reason", "x")).toMatchObject({ code: 1 });
    const notSuspended = await cli("resume", "plain", "--reason", "x");
    expect(notSuspended.code).toBe(1);
    expect(notSuspended.stderr).toContain("plain is not suspended; nothing was changed");
  });
});
