// The devnet's HTTP endpoints: the public one (JSON-RPC on POST /, friendbot) with stellar-rpc's request limits
// (limits.ts), and the admin one (/admin/faults), a separate listener started only when asked for, as stellar-rpc
// keeps its own admin endpoint off the public port. The public one answers CORS for any origin, as public RPC
// providers do: a web page checks what it signs against the chain itself, from the browser (docs/claims.md).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Chain } from "../chain/chain.ts";
import type { RpcContext } from "./context.ts";
import type { FaultController } from "./fault-controller.ts";
import { type Faults, FaultValidationError, type TransportFault } from "./faults.ts";
import { friendbot } from "./friendbot.ts";
import { handleJsonRpc } from "./jsonrpc.ts";
import type { RpcLimits } from "./limits.ts";

export interface RpcServerOptions {
  readonly chain: Chain;
  readonly faults: FaultController;
  readonly limits: RpcLimits;
  readonly host: string;
  readonly port: number;
}

export interface AdminServerOptions {
  readonly faults: FaultController;
  readonly host: string;
  readonly port: number;
}

export interface RunningServer {
  readonly url: string;
  close(): Promise<void>;
}

class BodyTooLargeError extends Error {}

/**
 * Reads the body up to `maxBytes`. Past the limit it keeps reading without keeping, and refuses at the end of the
 * body: answering while the client is still sending would close the socket under it, and the client would see a
 * reset instead of the answer (Go's server lingers the same way). A body that goes on past 8× the limit is refused
 * at once.
 */
function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else if (size > maxBytes * 8) {
        req.removeAllListeners("data");
        req.removeAllListeners("end");
        req.resume();
        reject(new BodyTooLargeError());
      }
    });
    req.on("end", () => {
      if (size > maxBytes) reject(new BodyTooLargeError());
      else resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", reject);
  });
}

/**
 * CORS for the public endpoint: any origin, no credentials (the RPC has no cookies or sessions to protect), as a
 * public Stellar RPC answers a browser. A preflight is answered for POST with whatever headers the page asks to
 * send (the SDK adds its own `X-Client-*` headers); Node answers with the headers set here on every reply.
 */
function allowAnyOrigin(req: IncomingMessage, res: ServerResponse): boolean {
  res.setHeader("access-control-allow-origin", "*");
  if (req.method !== "OPTIONS") return false;
  res.setHeader("access-control-allow-methods", "POST, GET, OPTIONS");
  const asked = req.headers["access-control-request-headers"];
  if (asked !== undefined) res.setHeader("access-control-allow-headers", asked);
  res.setHeader("access-control-max-age", "86400");
  res.writeHead(204, { "content-length": 0 });
  res.end();
  return true;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendJsonText(res, status, JSON.stringify(body));
}

function sendJsonText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** Writes a body given in pieces, waiting for the socket to drain between them rather than queueing them all. */
async function sendJsonParts(res: ServerResponse, parts: readonly Buffer[]): Promise<void> {
  let length = 0;
  for (const part of parts) length += part.length;
  res.writeHead(200, { "content-type": "application/json", "content-length": length });
  for (const part of parts) {
    if (res.destroyed) return;
    if (!res.write(part)) await drainedOrClosed(res);
  }
  res.end();
}

/** A bare status, as stellar-rpc's limiters answer (503 backlog full, 504 execution time exceeded). */
function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status, { "content-length": 0 });
  res.end();
}

/**
 * stellar-rpc's answer to a body over its limit: Go's MaxBytesReader error, which its JSON-RPC bridge reports as
 * a plain-text 500 (not a JSON-RPC error), and the connection closed.
 */
function sendBodyTooLarge(res: ServerResponse): void {
  const text = "http: request body too large\n";
  res.writeHead(500, {
    "content-type": "text/plain; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "accept-post": "application/json",
    connection: "close",
  });
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

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** How long an idle kept-alive connection stays open (stop() closes every connection at once anyway). */
const IDLE_KEEP_ALIVE_MS = 120_000;

function listen(handle: Handler, host: string, port: number, onUrl: (url: string) => void) {
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
      } else res.destroy();
    });
  });
  // Node closes an idle kept-alive socket after 5 s. A client that spends longer than that between two requests
  // (decoding a 5,000-event page on a loaded machine) can send its next request on a socket the server is closing
  // and see "fetch failed". RPC providers keep idle connections far longer, so the devnet does too.
  server.keepAliveTimeout = IDLE_KEEP_ALIVE_MS;
  return new Promise<RunningServer>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const { port: bound } = server.address() as AddressInfo;
      const url = `http://${host}:${bound}`;
      onUrl(url);
      resolve({
        url,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** The public endpoint: JSON-RPC on POST / and friendbot, CORS for any origin; every other path is 404. */
export function startRpcServer(opts: RpcServerOptions): Promise<RunningServer> {
  const { chain, faults, limits } = opts;
  let baseUrl = "";
  const ctx: RpcContext = {
    chain,
    get friendbotUrl() {
      return `${baseUrl}/friendbot`;
    },
    faults: () => faults.current,
    limits,
  };
  let inFlight = 0;

  async function handleRpc(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: string;
    try {
      body = await readBody(req, limits.maxRequestBytes);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return sendBodyTooLarge(res);
      throw error;
    }
    const latency = faults.current.latencyMs;
    if (latency > 0) await sleep(latency);
    const transport = faults.transportFault();
    if (transport !== null) return sendTransportFault(res, transport, faults.current);
    let gone = false;
    res.once("close", () => {
      gone = !res.writableFinished;
    });
    const outcome = await handleJsonRpc(body, ctx, faults, {
      deadline: performance.now() + limits.maxRequestExecutionMs,
      gone: () => gone,
    });
    if (outcome.kind === "body") return sendJsonParts(res, outcome.body);
    if (outcome.kind === "timeout") return sendEmpty(res, 504);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://devnet");
    if (allowAnyOrigin(req, res)) return;
    if (url.pathname === "/friendbot" && (req.method === "GET" || req.method === "POST")) {
      const reply = friendbot(chain, url.searchParams.get("addr"));
      sendJson(res, reply.status, reply.body);
      return;
    }
    if (url.pathname !== "/") return sendJson(res, 404, { error: "not found" });
    if (req.method !== "POST") return sendJson(res, 405, { error: "JSON-RPC requests are POSTed to /" });
    if (inFlight >= limits.requestBacklogGlobal) {
      req.resume();
      return sendEmpty(res, 503);
    }
    inFlight++;
    try {
      await handleRpc(req, res);
    } finally {
      inFlight--;
    }
  }

  return listen(handle, opts.host, opts.port, (url) => {
    baseUrl = url;
  });
}

/** The admin endpoint: GET /admin/faults reads the faults, POST changes them (a partial update). */
export function startAdminServer(opts: AdminServerOptions): Promise<RunningServer> {
  const { faults } = opts;
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://devnet");
    if (url.pathname !== "/admin/faults") return sendJson(res, 404, { error: "not found" });
    if (req.method === "GET") return sendJson(res, 200, faults.current);
    if (req.method !== "POST") return sendJson(res, 405, { error: "method not allowed" });
    try {
      return sendJson(res, 200, faults.update(JSON.parse(await readBody(req, 64 * 1024))));
    } catch (error) {
      if (error instanceof FaultValidationError || error instanceof SyntaxError) {
        return sendJson(res, 400, { error: error.message });
      }
      if (error instanceof BodyTooLargeError) return sendJson(res, 413, { error: "body too large" });
      throw error;
    }
  }
  return listen(handle, opts.host, opts.port, () => {});
}
