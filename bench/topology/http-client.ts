// HTTP GETs for the topology suite: kept-alive connections from one local address each, so that a check's clients
// are counted apart by the per-IP rate limit; a timeout or a connection error is an answer too (status 0 or -1).
import { Agent, type IncomingHttpHeaders, request } from "node:http";

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  ms: number;
  error?: string;
}

export interface HttpClient {
  get(url: string, timeoutMs?: number): Promise<Answer>;
  close(): void;
}

/**
 * GETs from one local address; status 0 for a timeout, -1 for a connection error. Connections are kept alive
 * unless `keepAlive` is false: a client used only now and then would otherwise reuse a connection just as the
 * server closes it for idleness (HTTP_KEEP_ALIVE_TIMEOUT_MS), and read that race as a connection error.
 */
export function client(localAddress: string, { keepAlive = true } = {}): HttpClient {
  const agent = new Agent({ keepAlive, localAddress } as ConstructorParameters<typeof Agent>[0]);
  return {
    get: (url, timeoutMs = 30_000) =>
      new Promise<Answer>((resolve) => {
        const started = performance.now();
        const ms = () => Math.round(performance.now() - started);
        const req = request(url, { agent, signal: AbortSignal.timeout(timeoutMs) }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? -1,
              headers: res.headers,
              body: Buffer.concat(chunks).toString(),
              ms: ms(),
            }),
          );
          res.on("error", (err) =>
            resolve({ status: -1, headers: {}, body: "", ms: ms(), error: err.message }),
          );
        });
        req.on("error", (err) =>
          resolve({
            status: err.name === "AbortError" || err.name === "TimeoutError" ? 0 : -1,
            headers: {},
            body: "",
            ms: ms(),
            error: `${err.name}: ${err.message}`,
          }),
        );
        req.end();
      }),
    close: () => agent.destroy(),
  };
}
