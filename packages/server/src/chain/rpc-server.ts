// The SDK's RPC connection, with a deadline on every request. Why not the SDK's own option: `rpc.Server` documents
// `timeout` but does not apply it (stellar-sdk 17: its HTTP client is built from the headers alone), so a provider
// that held a request open held a wallet's prepare, submit or live read for as long as it did (60 s and 300 s in
// a fault run). The HTTP client's per-instance defaults are what each of its requests takes its timeout from.
import { rpc } from "@stellar/stellar-sdk";

/** Long enough for a slow simulation on a busy provider; short enough that a wallet gets its 503 in seconds. */
export const RPC_REQUEST_TIMEOUT_MS = 10_000;

export function rpcServer(rpcUrl: string, timeoutMs = RPC_REQUEST_TIMEOUT_MS): rpc.Server {
  const server = new rpc.Server(rpcUrl, { allowHttp: rpcUrl.startsWith("http://"), timeout: timeoutMs });
  server.httpClient.defaults.timeout = timeoutMs;
  return server;
}
