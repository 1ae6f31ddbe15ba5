// Test helper: an HTTP proxy in front of a devnet that records every JSON-RPC request/response pair, so the
// unchanged SDK client can be pointed at it and every answer validated afterwards.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface RpcExchange {
  readonly method: string;
  readonly params: unknown;
  readonly response: { result?: unknown; error?: { code: number; message: string } };
}

export interface RpcRecorder {
  readonly url: string;
  readonly exchanges: RpcExchange[];
  close(): Promise<void>;
}

function record(exchanges: RpcExchange[], request: unknown, response: unknown): void {
  if (Array.isArray(request) && Array.isArray(response)) {
    for (const [i, r] of request.entries()) record(exchanges, r, response[i]);
    return;
  }
  if (typeof request !== "object" || request === null || typeof response !== "object" || response === null)
    return;
  const req = request as { method?: unknown; params?: unknown };
  if (typeof req.method !== "string") return;
  exchanges.push({ method: req.method, params: req.params, response: response as RpcExchange["response"] });
}

export function startRpcRecorder(targetUrl: string): Promise<RpcRecorder> {
  const exchanges: RpcExchange[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const upstream = await fetch(new URL(req.url ?? "/", targetUrl), {
      method: req.method,
      headers: { "content-type": req.headers["content-type"] ?? "application/json" },
      body: req.method === "GET" || req.method === "HEAD" ? undefined : body,
    });
    const text = await upstream.text();
    if (req.method === "POST" && (req.url ?? "/") === "/") {
      try {
        record(exchanges, JSON.parse(body.toString("utf8")), JSON.parse(text));
      } catch {
        // Malformed bodies are a test's own business; nothing to record.
      }
    }
    res.writeHead(upstream.status, {
      "content-type": upstream.headers.get("content-type") ?? "application/json",
    });
    res.end(text);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        exchanges,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
