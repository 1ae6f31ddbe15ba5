// The devnet's HTTP endpoint: JSON-RPC on POST /, friendbot, and the fault admin routes.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Chain } from "../chain/chain.ts";
import type { RpcContext } from "./context.ts";
import { RpcCode } from "./errors.ts";
import type { FaultController } from "./fault-controller.ts";
import { type Faults, FaultValidationError, type TransportFault } from "./faults.ts";
import { friendbot } from "./friendbot.ts";
import { handleJsonRpc } from "./jsonrpc.ts";

export const MAX_BODY_BYTES = 512 * 1024;

export interface RpcServerOptions {
  readonly chain: Chain;
  readonly faults: FaultController;
  readonly host: string;
  readonly port: number;
}

export interface RunningServer {
  readonly url: string;
  close(): Promise<void>;
}

class BodyTooLargeError extends Error {}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BodyTooLargeError());
        req.removeAllListeners("data");
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** What a provider's edge sends instead of the RPC's answer (faults.ts, transport faults). */
async function sendTransportFault(res: ServerResponse, fault: TransportFault, f: Faults): Promise<void> {
  switch (fault) {
    case "rateLimited":
      res.setHeader("retry-after", String(f.retryAfterSeconds));
      return sendJson(res, 429, { error: "rate limited (injected fault)" });
    case "unavailable":
      return sendJson(res, 503, { error: "service unavailable (injected fault)" });
    case "reset":
      res.socket?.resetAndDestroy();
      return;
    case "hang":
      await sleep(f.hangMs);
      res.socket?.destroy();
      return;
    case "malformed": {
      const text = '{"jsonrpc":"2.0","id":1,"result":{"ev';
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.end(text);
      return;
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function startRpcServer(opts: RpcServerOptions): Promise<RunningServer> {
  const { chain, faults } = opts;
  let baseUrl = "";
  const ctx: RpcContext = {
    chain,
    get friendbotUrl() {
      return `${baseUrl}/friendbot`;
    },
    faults: () => faults.current,
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://devnet");
    if (url.pathname === "/friendbot" && (req.method === "GET" || req.method === "POST")) {
      const reply = friendbot(chain, url.searchParams.get("addr"));
      sendJson(res, reply.status, reply.body);
      return;
    }
    if (url.pathname === "/admin/faults") {
      if (req.method === "GET") return sendJson(res, 200, faults.current);
      if (req.method === "POST") {
        try {
          return sendJson(res, 200, faults.update(JSON.parse(await readBody(req))));
        } catch (error) {
          if (error instanceof FaultValidationError || error instanceof SyntaxError) {
            return sendJson(res, 400, { error: error.message });
          }
          throw error;
        }
      }
      return sendJson(res, 405, { error: "method not allowed" });
    }
    if (url.pathname !== "/") return sendJson(res, 404, { error: "not found" });
    if (req.method !== "POST") return sendJson(res, 405, { error: "JSON-RPC requests are POSTed to /" });
    let body: string;
    try {
      body = await readBody(req);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        res.setHeader("connection", "close");
        return sendJson(res, 413, {
          jsonrpc: "2.0",
          id: null,
          error: { code: RpcCode.invalidRequest, message: `request body exceeds ${MAX_BODY_BYTES} bytes` },
        });
      }
      throw error;
    }
    const latency = faults.current.latencyMs;
    if (latency > 0) await sleep(latency);
    const transport = faults.transportFault();
    if (transport !== null) return sendTransportFault(res, transport, faults.current);
    sendJson(res, 200, handleJsonRpc(body, ctx, faults));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
      } else res.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      const { port } = server.address() as AddressInfo;
      baseUrl = `http://${opts.host}:${port}`;
      resolve({
        url: baseUrl,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
