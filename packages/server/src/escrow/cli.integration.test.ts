// `namereg escrow parked | reconcile` as an operator runs them, on the same PostgreSQL: in this process through the
// command's own entry (test/fixtures/cli.ts); the escrow family's real-binary run (a refusal, exit 1) is here.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliProcess } from "../../test/fixtures/cli.ts";
import { escrowCliEnv, type MarketHarness, startMarketHarness } from "../../test/fixtures/market.ts";
import { BACKSTOP_MS } from "../../test/fixtures/progress.ts";
import { marketPayments, marketPayouts } from "../db/tables.ts";
import { owe } from "./obligations.ts";

// The tests, a chain of commands, are bounded by each command's progress, not by a total.
describe("namereg escrow", { timeout: BACKSTOP_MS }, () => {
  let h: MarketHarness;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    h = await startMarketHarness("postgres");
    env = escrowCliEnv(h);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const cli = (...args: string[]) => runCli(["escrow", ...args], env);
  /** The real binary: a process of its own, its exit code and streams as an operator's shell sees them. */
  const cliProcess = async (...args: string[]) => {
    const { code, stdout, stderr } = await runCliProcess(["escrow", ...args], env);
    return { code, stdout, stderr };
  };

  it("reconcile exits 0 when the books hold and 1 on a shortfall; parked lists nothing", async () => {
    expect(await cli("parked")).toMatchObject({ code: 0, stdout: "nothing is parked\n" });
    const ok = await cli("reconcile");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("reconciled");
    const balance = await h.balance(h.escrow.publicKey());
    await h.database.db.insert(marketPayments).values({
      id: "phantom:0",
      ledger: 1,
      toid: "0".repeat(19),
      closedAt: new Date(),
      txHash: "phantom",
      operationIndex: 0,
      source: h.escrow.publicKey(),
      asset: "native",
      amount: balance + 1n,
      memoType: "none",
      state: "bond",
      held: balance + 1n,
    });
    const short = await cliProcess("reconcile");
    expect(short.code).toBe(1);
    expect(short.stdout).toContain("MISMATCH");
  });

  it("refuses a flag given without its value instead of reading it as absent (an empty --to $ADDR)", async () => {
    // Dust parked for a sender; the operator means to pay it to another account, but the shell variable holding
    // that account is empty. Read as "no --to", the payout would go to the original destination.
    const sender = (await h.funded()).publicKey();
    await owe(
      h.database.db,
      [{ paymentId: "flags:0", purpose: "refund", destination: sender, amount: 1n }],
      new Date(),
    );
    const id = "flags:0:refund";
    const state = async () =>
      (await h.database.db.select().from(marketPayouts).where(eq(marketPayouts.id, id)))[0]?.state;
    expect(await state()).toBe("parked");

    const noTo = await cli("release", id, "--reason", "sender asked for another account", "--to");
    expect(noTo).toMatchObject({ code: 1, stderr: "namereg escrow: --to needs a G… account after it\n" });
    const toThenFlag = await cli("release", id, "--to", "--reason", "why");
    expect(toThenFlag).toMatchObject({
      code: 1,
      stderr: "namereg escrow: --to needs a G… account after it\n",
    });
    const noReason = await cli("release", id, "--keep", "--reason");
    expect(noReason).toMatchObject({ code: 1, stderr: "namereg escrow: --reason needs a text after it\n" });
    const flagAsReason = await cli("release", id, "--reason", "--keep");
    expect(flagAsReason).toMatchObject({
      code: 1,
      stderr: "namereg escrow: --reason needs a text after it\n",
    });
    const refundNoTo = await cli("refund", id, "--reason", "r", "--to");
    expect(refundNoTo).toMatchObject({
      code: 1,
      stderr: "namereg escrow: --to needs a G… account after it\n",
    });
    expect(await state()).toBe("parked");
    expect(
      await h.database.db
        .select()
        .from(marketPayouts)
        .where(eq(marketPayouts.id, `${id}:release`)),
    ).toEqual([]);
  });
});
