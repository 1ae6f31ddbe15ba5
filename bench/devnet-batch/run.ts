// One large JSON-RPC batch against a devnet: a demo devnet in a child process, a batch of N getEvents sent to it
// while a getHealth is asked every 50 ms; prints the batch's time, the slowest getHealth, the devnet's longest
// event-loop stall and peak RSS. Baseline, measured in the same run: the slowest of 20 getHealth on the idle devnet.
//   npx node bench/devnet-batch/run.ts [calls=2400]
import { fork } from "node:child_process";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { startNamingDevnet } from "@namereg/devnet";

type Message =
  | { url: string; start: number }
  | { started: true }
  | { maxLoopDelayMs: number; peakRssMB: number };

async function serve(): Promise<void> {
  const devnet = await startNamingDevnet({ scenario: "demo", closeIntervalMs: 1000 });
  const delay = monitorEventLoopDelay({ resolution: 10 });
  let peak = 0;
  setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20).unref();
  process.on("message", (m) => {
    if (m === "start") {
      delay.enable();
      peak = 0;
      process.send?.({ started: true });
    } else if (m === "stats") {
      delay.disable();
      process.send?.({
        maxLoopDelayMs: Math.round(delay.max / 1e6),
        peakRssMB: Math.round(Math.max(peak, process.memoryUsage().rss) / 1e6),
      });
    } else if (m === "stop") void devnet.stop().then(() => process.exit(0));
  });
  // The measuring parent gone (killed, crashed), this process goes too.
  process.once("disconnect", () => process.exit(0));
  process.send?.({ url: devnet.rpcUrl, start: devnet.deploymentLedger });
}

async function measure(calls: number): Promise<void> {
  const child = fork(import.meta.filename, ["--serve"]);
  const next = () => new Promise<Message>((resolve) => child.once("message", (m) => resolve(m as Message)));
  try {
    const ready = await next();
    if (!("url" in ready)) throw new Error("the devnet did not start");
    const batch = JSON.stringify(
      Array.from({ length: calls }, (_, i) => ({
        jsonrpc: "2.0",
        id: i + 1,
        method: "getEvents",
        params: { startLedger: ready.start, filters: [] },
      })),
    );
    const rpc = (body: string) =>
      fetch(ready.url, { method: "POST", headers: { "content-type": "application/json" }, body });
    const health = '{"jsonrpc":"2.0","id":1,"method":"getHealth"}';
    for (let i = 0; i < 5; i++) await (await rpc(health)).text(); // warm-up: connection, JIT
    let idleSlowest = 0;
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await (await rpc(health)).text();
      idleSlowest = Math.max(idleSlowest, performance.now() - t);
    }
    child.send("start");
    await next(); // the stall monitor is on before the batch leaves
    let slowestHealth = 0;
    let healthAnswers = 0;
    let stop = false;
    const healthLoop = (async () => {
      while (!stop) {
        const t = performance.now();
        await (await rpc(health)).text();
        slowestHealth = Math.max(slowestHealth, performance.now() - t);
        healthAnswers++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const t0 = performance.now();
    const res = await rpc(batch);
    const bytes = (await res.arrayBuffer()).byteLength;
    const batchMs = performance.now() - t0;
    stop = true;
    await healthLoop;
    child.send("stats");
    const stats = await next();
    console.log({
      calls,
      requestKiB: Math.round(batch.length / 1024),
      status: res.status,
      responseMB: +(bytes / 1e6).toFixed(1),
      batchMs: Math.round(batchMs),
      healthAnswersDuring: healthAnswers,
      slowestHealthMs: Math.round(slowestHealth),
      idleSlowestHealthMs: +idleSlowest.toFixed(1),
      ...stats,
    });
  } finally {
    child.send("stop");
  }
}

if (process.argv.includes("--serve")) await serve();
else await measure(Number(process.argv[2] ?? 2400));
