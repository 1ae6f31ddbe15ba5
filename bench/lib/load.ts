// The HTTP load generator of the benchmarks: wrk (C, Debian's `wrk`) where installed, since it takes a fraction
// of the CPU autocannon needs for the same rate and so leaves the measured server its cores; autocannon
// otherwise. Every benchmark prints which one it used.
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import autocannon from "autocannon";

export interface Load {
  readonly rps: number;
  /** Requests answered in all. */
  readonly requests: number;
  /** Milliseconds. */
  readonly p50: number;
  readonly p99: number;
  /** Non-2xx answers plus socket errors. */
  readonly failed: number;
}

export interface LoadOptions {
  readonly connections: number;
  readonly seconds: number;
  /** `random`: any path each request; `sequential`: each path once in order, wrapping (cache-miss sweeps). */
  readonly order?: "random" | "sequential";
}

export type LoadGenerator = ((base: string, paths: readonly string[], o: LoadOptions) => Promise<Load>) & {
  readonly tool: string;
};

const run = promisify(execFile);

function hasWrk(): boolean {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (err) {
    // wrk --version exits 1 after printing its version; only a missing binary is ENOENT.
    return (err as { code?: string }).code !== "ENOENT";
  }
}

/** wrk's `1.23ms` / `850.00us` / `1.02s` in milliseconds. */
function millis(value: string): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(value.trim());
  if (m === null) return Number.NaN;
  const n = Number(m[1]);
  return m[2] === "us" ? n / 1000 : m[2] === "s" ? n * 1000 : n;
}

// One Lua state per wrk thread; with one thread `sequential` visits each path once before wrapping.
const SCRIPT = `
local paths = {}
for line in io.lines(os.getenv("NAMEREG_BENCH_PATHS")) do paths[#paths + 1] = line end
local order = os.getenv("NAMEREG_BENCH_ORDER")
local i = 0
math.randomseed(os.time())
request = function()
  if order == "sequential" then i = i % #paths + 1 else i = math.random(#paths) end
  return wrk.format("GET", paths[i])
end
`;

function wrkGenerator(): LoadGenerator {
  const dir = mkdtempSync(join(tmpdir(), "namereg-bench-"));
  const script = join(dir, "paths.lua");
  writeFileSync(script, SCRIPT);
  let n = 0;
  const generate = async (base: string, paths: readonly string[], o: LoadOptions): Promise<Load> => {
    const file = join(dir, `paths-${n++}.txt`);
    writeFileSync(file, `${paths.join("\n")}\n`);
    const { stdout } = await run(
      "wrk",
      [
        "-t1",
        `-c${o.connections}`,
        `-d${Math.max(1, Math.round(o.seconds))}s`,
        "--latency",
        "-s",
        script,
        base,
      ],
      {
        env: { ...process.env, NAMEREG_BENCH_PATHS: file, NAMEREG_BENCH_ORDER: o.order ?? "random" },
        maxBuffer: 1 << 20,
      },
    );
    const field = (re: RegExp) => re.exec(stdout)?.[1];
    const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
    const errors = socketErrors === null ? 0 : socketErrors.slice(1).reduce((a, b) => a + Number(b), 0);
    return {
      rps: Number(field(/Requests\/sec:\s+([\d.]+)/)),
      requests: Number(field(/(\d+) requests in/)),
      p50: millis(field(/\n\s+50%\s+(\S+)/) ?? ""),
      p99: millis(field(/\n\s+99%\s+(\S+)/) ?? ""),
      failed: Number(field(/Non-2xx or 3xx responses: (\d+)/) ?? 0) + errors,
    };
  };
  return Object.assign(generate, {
    tool: `wrk (${execFileSync("which", ["wrk"]).toString().trim()}, 1 thread)`,
  });
}

function autocannonGenerator(): LoadGenerator {
  const generate = async (base: string, paths: readonly string[], o: LoadOptions): Promise<Load> => {
    let next = 0;
    const result = await autocannon({
      url: base,
      connections: o.connections,
      duration: o.seconds,
      requests: [
        {
          setupRequest: (req) => {
            const path =
              o.order === "sequential"
                ? paths[next++ % paths.length]
                : paths[Math.floor(Math.random() * paths.length)];
            return { ...req, path: path ?? "/" };
          },
        },
      ],
    });
    return {
      rps: result.requests.average,
      requests: result.requests.total,
      p50: result.latency.p50,
      p99: result.latency.p99,
      failed: result.non2xx + result.errors,
    };
  };
  return Object.assign(generate, { tool: "autocannon (in-process; wrk not installed: apt-get install wrk)" });
}

export function loadGenerator(): LoadGenerator {
  return hasWrk() ? wrkGenerator() : autocannonGenerator();
}

/** Requests every path once, `concurrency` at a time (warming a cache); returns the failures. */
export async function visitAll(base: string, paths: readonly string[], concurrency: number): Promise<number> {
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < paths.length) {
        const path = paths[next++] as string;
        const response = await fetch(new URL(path, base));
        await response.arrayBuffer();
        if (response.status !== 200) failed++;
      }
    }),
  );
  return failed;
}
