// The servers the resolve benchmark loads, each in its own process so the load generator does not share its
// event loop: `api <database-url>` (the real app, cache and all) or `bare [<answer>]` (node:http answering with the
// fixed headers and body of one of the API's answers). Prints `READY <url>` once listening; exits on SIGTERM.
import { createServer } from "node:http";
import { buildApp, openDatabase, tuneGcForServing } from "@namereg/server";
import { testConfig } from "@namereg/server/testing";

const [mode, databaseUrl] = process.argv.slice(2);

if (mode === "bare") {
  // `bare <answer>`: the headers (a flat list) and body of one of the API's cached answers, sent as they are.
  const answer = process.argv[3];
  const { headers, body } =
    answer === undefined
      ? { headers: ["content-type", "application/json; charset=utf-8"], body: "{}" }
      : (JSON.parse(answer) as { headers: string[]; body: string });
  const server = createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  });
  server.listen(0, "127.0.0.1", () => {
    const address = server.address();
    if (address !== null && typeof address === "object")
      console.log(`READY http://127.0.0.1:${address.port}`);
  });
  process.once("SIGTERM", () => server.close(() => process.exit(0)));
} else if (mode === "api" && databaseUrl !== undefined) {
  // As `namereg serve` does.
  tuneGcForServing();
  const database = await openDatabase({ url: databaseUrl });
  // The global per-IP limit would stop one load generator at 600 requests a minute: set it far above what the API
  // can answer in a minute (at 1,000,000 a fast run reached it and measured 429s).
  const app = await buildApp({
    config: testConfig({ RATE_LIMIT_PER_MINUTE: "1000000000", DATABASE_URL: databaseUrl }),
    db: database,
    redis: null,
  });
  const url = await app.listen({ port: 0, host: "127.0.0.1" });
  // The benchmark asks for the heap in use after a full collection (run with --expose-gc), which shows growth
  // where RSS cannot.
  process.on("message", (message) => {
    if (message !== "memory") return;
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({ heapUsed: process.memoryUsage().heapUsed });
  });
  console.log(`READY ${url}`);
  process.once("SIGTERM", () => {
    void app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0));
  });
} else {
  console.error("usage: server.ts bare | api <database-url>");
  process.exit(2);
}
