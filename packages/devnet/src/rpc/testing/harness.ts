// Test helper: an on-demand devnet behind a recording proxy, the unchanged SDK client pointed at the proxy,
// and the OpenRPC conformance check every integration test file ends with.
import { rpc } from "@stellar/stellar-sdk";
import { expect, it } from "vitest";
import { type Devnet, type DevnetOptions, startDevnet } from "../../devnet.ts";
import { loadConformance } from "./openrpc-conformance.ts";
import { type RpcRecorder, startRpcRecorder } from "./rpc-recorder.ts";

export interface Harness {
  readonly devnet: Devnet;
  readonly recorder: RpcRecorder;
  readonly server: rpc.Server;
  /** A raw JSON-RPC call through the recorder (for requests the SDK cannot make). */
  call(
    method: string,
    params?: unknown,
  ): Promise<{ result?: unknown; error?: { code: number; message: string } }>;
  close(): Promise<void>;
}

export async function startHarness(opts: DevnetOptions = {}): Promise<Harness> {
  const devnet = await startDevnet({ closeIntervalMs: 0, ...opts });
  const recorder = await startRpcRecorder(devnet.rpcUrl);
  const server = new rpc.Server(recorder.url, { allowHttp: true });
  let id = 0;
  return {
    devnet,
    recorder,
    server,
    async call(method, params) {
      const res = await fetch(recorder.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: ++id,
          method,
          ...(params === undefined ? {} : { params }),
        }),
      });
      return (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
    },
    async close() {
      await recorder.close();
      await devnet.stop();
    },
  };
}

/** Adds the conformance test: every recorded result of the file validated against the OpenRPC document. */
export function itConformsToOpenRpc(
  harness: () => Harness | undefined,
  expectedMethods: readonly string[],
): void {
  const conformance = loadConformance();
  const title = conformance.available
    ? "every recorded RPC result conforms to the published OpenRPC result schemas"
    : `SKIPPED - OpenRPC conformance not checked: ${conformance.reason}`;
  it.skipIf(!conformance.available)(title, () => {
    const h = harness();
    if (!conformance.available || h === undefined) throw new Error("no harness");
    const { failures, checked } = conformance.validate(h.recorder.exchanges);
    expect(failures).toEqual([]);
    for (const method of expectedMethods)
      expect(checked.get(method) ?? 0, `${method} was checked`).toBeGreaterThan(0);
  });
}
