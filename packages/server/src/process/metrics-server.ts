// The METRICS_PORT listener (docs/operations.md "Metrics"): `/health` and `/metrics` for a process that has no API
// (`index`, `escrow watch`, `billing watch`, `webhooks deliver`), and where the API's `/metrics` moves to when
// METRICS_PORT is set. Two fixed read-only paths on node:http: nothing to route, parse or limit, and a watcher
// process need not load the API's framework for them. prom-client renders the registry; it serves no HTTP itself.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";

export interface MetricsServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(o: {
  readonly port: number;
  readonly host: string;
  readonly serviceName: string;
  /** Null: `/metrics` is off (METRICS_ENABLED=false), `/health` still answers. */
  readonly registry: Registry | null;
}): Promise<MetricsServer> {
  const json = (status: number, body: unknown) => ({
    status,
    type: "application/json; charset=utf-8",
    body: JSON.stringify(body),
  });
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const answer = async () => {
      if (req.method !== "GET" && req.method !== "HEAD") return json(405, { error: "method_not_allowed" });
      if (path === "/health") return json(200, { ok: true, service: o.serviceName });
      if (path === "/metrics" && o.registry !== null)
        return { status: 200, type: o.registry.contentType, body: await o.registry.metrics() };
      return json(404, { error: "not_found" });
    };
    answer().then(
      (a) => {
        res.writeHead(a.status, { "content-type": a.type, "cache-control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : a.body);
      },
      () => {
        res.writeHead(500, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify({ error: "internal_error" }));
      },
    );
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, o.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
