// `namereg escrow parked | reconcile` as an operator runs them: a separate process on the same PostgreSQL.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInGroup } from "../../test/fixtures/child-processes.ts";
import { type MarketHarness, startMarketHarness } from "../../test/fixtures/market.ts";
import { BACKSTOP_MS } from "../../test/fixtures/progress.ts";
import { marketPayments } from "../db/tables.ts";

const CLI = fileURLToPath(new URL("../cli.ts", import.meta.url));

// Each CLI command is a process started cold (seconds each on a loaded machine) and is bounded on its own
// (runInGroup's step limit); the tests, a chain of them, are bounded by that progress, not by a total.
describe("namereg escrow", { timeout: BACKSTOP_MS }, () => {
  let h: MarketHarness;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    h = await startMarketHarness("postgres");
    env = {
      ...process.env,
      LOG_LEVEL: "silent",
      DATABASE_URL: h.database.url,
      RPC_URL: h.devnet.rpcUrl,
      NETWORK_PASSPHRASE: h.devnet.networkPassphrase,
      MARKET_ENABLED: "true",
      ESCROW_ACCOUNT: h.escrow.publicKey(),
      ESCROW_SECRET: h.escrow.secret(),
    };
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const cli = async (...args: string[]) => {
    const { code, stdout } = await runInGroup(process.execPath, [CLI, "escrow", ...args], { env });
    return { code, stdout };
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
    const short = await cli("reconcile");
    expect(short.code).toBe(1);
    expect(short.stdout).toContain("MISMATCH");
  });
});
