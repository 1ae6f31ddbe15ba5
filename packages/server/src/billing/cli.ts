// `namereg billing quarantined | subscriptions | apply <payment> <namespace> [--periods N] --reason "…" |
//  resolve <payment> --reason "…" | suspend <namespace> --reason "…" | resume <namespace> --reason "…" | catch-up --rpc <url> | watch`.
import { stroopsToXlm } from "@namereg/protocol";
import { ServiceMetrics } from "../metrics/service-metrics.ts";
import { runObserved } from "../process/metrics-listener.ts";
import { openRuntime } from "../process/runtime.ts";
import { catchUpCommand } from "../watchers/catch-up-command.ts";
import { registerBillingGauges } from "./metrics.ts";
import {
  applyQuarantined,
  BillingOperatorError,
  listQuarantined,
  listSubscriptions,
  resolveQuarantined,
  setSuspended,
} from "./operator.ts";
import { BILLING_CURSOR } from "./status.ts";
import { QUARANTINE_REASONS, type QuarantineReason } from "./terms.ts";
import { storeBillingPayments } from "./watcher.ts";
import { runBillingWatcherProcess } from "./watcher-process.ts";

export const BILLING_USAGE = `usage: namereg billing <command>

  quarantined                                        payments the watcher could not apply, with the reason
  subscriptions                                      every namespace: active, lapsed or suspended, paid until
  apply <payment> <namespace> [--periods N] --reason "…"
                                                     credit a quarantined payment to a namespace (from now)
  resolve <payment> --reason "…"                     settle a quarantined payment by hand (e.g. refunded)
  suspend <namespace> --reason "…"                   hide a namespace from the directory, paid or not
  resume <namespace> --reason "…"                    lift a suspension
  catch-up --rpc <url>                               read the watcher's retention gap (its cursor fell out of
                                                     RPC_URL's retention) from an RPC that still holds it
  watch                                              run the billing watcher only`;

const WANTS: Record<string, string> = { "--periods": "a whole number", "--reason": "a text" };

/**
 * The value after `name`. A flag given without one (last, or followed by another flag) is refused, never read as
 * absent: an empty `--periods $N` must not let the amount decide what the operator meant to set.
 */
function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at === -1) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith("--"))
    throw new BillingOperatorError(`${name} needs ${WANTS[name] ?? "a value"} after it`);
  return value;
}

function positional(args: readonly string[], count: number, what: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < args.length && values.length < count; i++) {
    const arg = args[i] as string;
    if (arg.startsWith("--")) {
      i++;
      continue;
    }
    values.push(arg);
  }
  if (values.length < count) throw new BillingOperatorError(`missing ${what}\n\n${BILLING_USAGE}`);
  return values;
}

function periodsOption(args: readonly string[]): number | undefined {
  const raw = option(args, "--periods");
  if (raw === undefined) return undefined;
  if (!/^[1-9]\d{0,4}$/.test(raw)) throw new BillingOperatorError("--periods must be a whole number from 1");
  return Number(raw);
}

export async function billingCommand(args: readonly string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === "watch") {
    const rt = await openRuntime("index", process.env, "namereg billing watch");
    if (!rt.config.billing.enabled) {
      // Nothing to watch: a supervisor must see a failure, not a clean exit that looks like a finished job.
      console.error("namereg billing watch: billing is off (set BILLING_ENABLED=true and its settings)");
      await rt.database.close();
      process.exitCode = 1;
      return;
    }
    const metrics = new ServiceMetrics();
    registerBillingGauges(metrics.registry, rt.database.replica, () => new Date());
    await runObserved(rt, metrics.registry, (signal) =>
      runBillingWatcherProcess({
        config: rt.config,
        database: rt.database,
        logger: rt.logger,
        signal,
        metrics,
      }),
    );
    return;
  }
  if (sub === "catch-up") {
    await catchUpCommand(
      {
        feature: "billing",
        what: "billing watcher",
        cursorName: BILLING_CURSOR,
        account: (config) => config.billing.account,
        accountVariable: "BILLING_ACCOUNT",
        store: (tx, payments) => storeBillingPayments(tx, payments),
      },
      rest,
    );
    return;
  }
  const known = ["quarantined", "subscriptions", "apply", "resolve", "suspend", "resume"];
  if (sub === undefined || !known.includes(sub)) {
    console.error(BILLING_USAGE);
    process.exitCode = 1;
    return;
  }
  const rt = await openRuntime("migrate", { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" });
  try {
    const db = rt.database.db;
    const now = new Date();
    const reason = option(rest, "--reason");
    switch (sub) {
      case "quarantined": {
        const items = await listQuarantined(db);
        if (items.length === 0) console.log("nothing is quarantined");
        for (const p of items) {
          const why = QUARANTINE_REASONS[p.reason as QuarantineReason] ?? p.reason;
          const amount = p.asset === "native" ? `${stroopsToXlm(p.amount)} XLM` : `${p.amount} ${p.asset}`;
          console.log(
            `${p.id}  ${amount}  from ${p.source}  memo ${p.memoType}${p.memo === null ? "" : ` ${p.memo}`}  ledger ${p.ledger}  ${p.reason}: ${why}`,
          );
        }
        return;
      }
      case "subscriptions": {
        for (const s of await listSubscriptions(db, now)) {
          const until = s.paidUntil === null ? "never paid" : `paid until ${s.paidUntil.toISOString()}`;
          const why = s.suspendReason === null ? "" : `  (${s.suspendReason})`;
          console.log(`${s.namespace.padEnd(24)} ${s.state.padEnd(9)} ${until}${why}`);
        }
        return;
      }
      case "apply": {
        const [payment, namespace] = positional(rest, 2, "<payment> <namespace>") as [string, string];
        const periods = periodsOption(rest);
        const result = await applyQuarantined(db, payment, namespace, {
          reason,
          pricePerPeriod: rt.config.billing.pricePerPeriod,
          now,
          ...(periods === undefined ? {} : { periods }),
        });
        console.log(
          `${payment} applied to ${namespace}: ${result.periods} period(s), paid until ${result.paidUntil.toISOString()}` +
            (result.remainder > 0n
              ? `; ${stroopsToXlm(result.remainder)} XLM bought nothing (refund by hand)`
              : ""),
        );
        return;
      }
      case "resolve": {
        const [payment] = positional(rest, 1, "<payment>") as [string];
        await resolveQuarantined(db, payment, { reason, now });
        console.log(`${payment} resolved by hand`);
        return;
      }
      default: {
        const [typed] = positional(rest, 1, "<namespace>") as [string];
        const namespace = typed.toLowerCase();
        const state = await setSuspended(db, namespace, sub === "suspend", { reason, now });
        console.log(`${namespace} is now ${state}`);
      }
    }
  } catch (err) {
    if (!(err instanceof BillingOperatorError)) throw err;
    console.error(`namereg billing: ${err.message}`);
    process.exitCode = 1;
  } finally {
    await rt.database.close();
  }
}
