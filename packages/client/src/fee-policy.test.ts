// readFeePolicy's failures are the client's typed error, as the README promises of every failure: an RPC that
// cannot be reached and a call that fails on chain are both `chain_unavailable` (503), never a bare Error.
import { randomBytes } from "node:crypto";
import { Networks, type rpc, StrKey } from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { NameregError } from "./api.ts";
import { readFeePolicy } from "./fee-policy.ts";

const allocator = StrKey.encodeContract(randomBytes(32));
const serverThat = (simulateTransaction: () => Promise<unknown>) =>
  ({ simulateTransaction }) as unknown as rpc.Server;

describe("readFeePolicy", () => {
  it("gives chain_unavailable when the RPC cannot be reached or the call fails on chain", async () => {
    const unreachable = serverThat(async () => {
      throw new Error("connect ECONNREFUSED 127.0.0.1:1");
    });
    const failing = serverThat(async () => ({
      id: "1",
      latestLedger: 9,
      error: "HostError: contract missing",
    }));
    for (const [server, detail] of [
      [unreachable, "fee_policy could not be asked: connect ECONNREFUSED 127.0.0.1:1"],
      [failing, "fee_policy failed on chain: HostError: contract missing"],
    ] as const) {
      const error = await readFeePolicy(server, Networks.STANDALONE, allocator).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NameregError);
      expect(error).toMatchObject({ status: 503, code: "chain_unavailable", detail });
    }
  });
});
