// `namereg devnet`: runs a naming devnet until interrupted and prints what a client needs to reach it.
import { parseArgs } from "node:util";
import { type NamingDevnet, SCENARIOS, type ScenarioName, startNamingDevnet } from "./naming-devnet.ts";
import { resolveLimits, STELLAR_RPC_LIMITS } from "./rpc/limits.ts";

const USAGE = `usage: namereg devnet [--port 8000] [--scenario demo|bulk|none] [--close-interval-ms 1000]
                      [--retention-ledgers 17280] [--bulk-events 1000000] [--bulk-namespaces 10]
                      [--admin-port PORT] [--limits JSON]

  --admin-port  serve /admin/faults (fault injection) on 127.0.0.1:PORT (also DEVNET_ADMIN_PORT; 0 = a free
                port); without it there is no admin endpoint, and the RPC port never serves /admin
  --limits      the RPC's request limits as a JSON object, e.g. '{"maxRequestExecutionMs":5000}'; each one left
                out is stellar-rpc's default: ${JSON.stringify(STELLAR_RPC_LIMITS)}`;

function positiveInt(name: string, raw: string | undefined, fallback: number, min = 0): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min)
    throw new Error(`--${name} must be an integer ≥ ${min}, got ${raw}`);
  return n;
}

export function describeDevnet(devnet: NamingDevnet): string {
  const lines = [
    `RPC URL             ${devnet.rpcUrl}`,
    `network passphrase  ${devnet.networkPassphrase}`,
    `friendbot           ${devnet.friendbotUrl}?addr=G...`,
    ...(devnet.adminUrl === undefined ? [] : [`faults (admin)      ${devnet.adminUrl}/admin/faults`]),
    `deployment ledger   ${devnet.deploymentLedger}`,
    `registry            ${devnet.contracts.registry}`,
    `allocator           ${devnet.contracts.allocator}`,
    `lookup              ${devnet.contracts.lookup}`,
    `primary             ${devnet.contracts.primary}`,
    `native token (XLM)  ${devnet.contracts.nativeToken}`,
  ];
  if (devnet.demo !== undefined) {
    lines.push(
      "",
      "demo names: alice.acme bob.acme old.acme (expired) gone.acme (reclaimed) carol.plain pay.alice.acme",
    );
    lines.push("demo accounts (development keys, public by design):");
    for (const [role, acct] of Object.entries(devnet.demo.accounts)) {
      lines.push(`  ${role.padEnd(10)} ${acct.publicKey}  ${acct.secret}`);
    }
  }
  if (devnet.bulk !== undefined) {
    const b = devnet.bulk;
    lines.push(
      "",
      `bulk: ${b.events} events (${b.names} names in ${b.namespaces.length} namespaces), ledgers ${b.firstLedger}–${b.lastLedger}, generated in ${b.seconds.toFixed(1)} s`,
    );
    for (const ns of b.namespaces) lines.push(`  ${ns.label.padEnd(10)} registrar ${ns.registrar}`);
  }
  return lines.join("\n");
}

/**
 * `stopWhen`: a further reason to stop besides SIGINT and SIGTERM — `namereg devnet` passes its launcher
 * exiting (npm does not pass a SIGTERM on to what `npx` started).
 */
export async function runDevnetCli(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  stopWhen?: Promise<unknown>,
): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string" },
      scenario: { type: "string" },
      "close-interval-ms": { type: "string" },
      "retention-ledgers": { type: "string" },
      "bulk-events": { type: "string" },
      "bulk-namespaces": { type: "string" },
      "admin-port": { type: "string" },
      limits: { type: "string" },
      help: { type: "boolean" },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const scenario = (values.scenario ?? "demo") as ScenarioName;
  if (!SCENARIOS.includes(scenario)) throw new Error(`--scenario must be one of ${SCENARIOS.join(", ")}`);
  const adminPort = values["admin-port"] ?? env.DEVNET_ADMIN_PORT;
  let limits: unknown;
  try {
    limits = values.limits === undefined ? {} : JSON.parse(values.limits);
  } catch {
    throw new Error(`--limits must be a JSON object, got ${values.limits}`);
  }
  if (typeof limits !== "object" || limits === null || Array.isArray(limits))
    throw new Error(`--limits must be a JSON object, got ${values.limits}`);
  const devnet = await startNamingDevnet({
    port: positiveInt("port", values.port ?? env.DEVNET_PORT, 8000),
    scenario,
    adminPort: adminPort === undefined ? undefined : positiveInt("admin-port", adminPort, 0),
    limits: resolveLimits(limits),
    closeIntervalMs: positiveInt("close-interval-ms", values["close-interval-ms"], 1000),
    retentionLedgers:
      values["retention-ledgers"] === undefined
        ? undefined
        : positiveInt("retention-ledgers", values["retention-ledgers"], 17280, 1),
    bulk: {
      events: positiveInt("bulk-events", values["bulk-events"], 1_000_000, 1),
      namespaces: positiveInt("bulk-namespaces", values["bulk-namespaces"], 10, 1),
    },
  });
  console.log(describeDevnet(devnet));
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    stopWhen?.then(stop, stop);
  });
  await devnet.stop();
}
