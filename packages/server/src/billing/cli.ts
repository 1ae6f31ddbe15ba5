// `namereg billing quarantined | subscriptions | apply <payment> <namespace> [--periods N] --reason "…" |
//  resolve <payment> --reason "…" | suspend <namespace> --reason "…" | resume <namespace> --reason "…" | catch-up --rpc <url> | watch`.
import { stroopsToXlm } from "@namereg/protocol";
import type { CommandIo } from "../process/command-io.ts";
import { openRuntime } from "../process/runtime.ts";
import { catchUpCommand } from "../watchers/catch-up-command.ts";
import { watchCommand } from "../watchers/watch-command.ts";
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
import { BILLING_WATCHER_VARIABLES, runBillingWatcherProcess } from "./watcher-process.ts";

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
  watch                                              run the billing watcher only; needs
                                                     ${BILLING_WATCHER_VARIABLES.join(", ")}`;

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

export async function billingCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "watch") {
    return watchCommand(
      {
        command: "namereg billing watch",
        enabled: (config) => config.billing.enabled,
        off: "billing is off (set BILLING_ENABLED=true and its settings)",
        registerGauges: registerBillingGauges,
        run: runBillingWatcherProcess,
      },
      io,
    );
  }
  if (sub === "catch-up") {
    return catchUpCommand(
      {
        feature: "billing",
        what: "billing watcher",
        cursorName: BILLING_CURSOR,
        account: (config) => config.billing.account,
        accountVariable: "BILLING_ACCOUNT",
        store: (tx, payments) => storeBillingPayments(tx, payments),
      },
      rest,
      io,
    );
  }
  const known = ["quarantined", "subscriptions", "apply", "resolve", "suspend", "resume"];
  if (sub === undefined || !known.includes(sub)) {
    io.err(BILLING_USAGE);
    return 1;
  }
  const rt = await openRuntime("migrate", io, { quiet: true });
  try {
    const db = rt.database.db;
    const now = new Date();
    const reason = option(rest, "--reason");
    switch (sub) {
      case "quarantined": {
        const items = await listQuarantined(db);
        if (items.length === 0) io.out("nothing is quarantined");
        for (const p of items) {
          const why = QUARANTINE_REASONS[p.reason as QuarantineReason] ?? p.reason;
          const amount = p.asset === "native" ? `${stroopsToXlm(p.amount)} XLM` : `${p.amount} ${p.asset}`;
          io.out(
            `${p.id}  ${amount}  from ${p.source}  memo ${p.memoType}${p.memo === null ? "" : ` ${p.memo}`}  ledger ${p.ledger}  ${p.reason}: ${why}`,
          );
        }
        return 0;
      }
      case "subscriptions": {
        for (const s of await listSubscriptions(db, now)) {
          const until = s.paidUntil === null ? "never paid" : `paid until ${s.paidUntil.toISOString()}`;
          const why = s.suspendReason === null ? "" : `  (${s.suspendReason})`;
          io.out(`${s.namespace.padEnd(24)} ${s.state.padEnd(9)} ${until}${why}`);
        }
        return 0;
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
        io.out(
          `${payment} applied to ${namespace}: ${result.periods} period(s), paid until ${result.paidUntil.toISOString()}` +
            (result.remainder > 0n
              ? `; ${stroopsToXlm(result.remainder)} XLM bought nothing (refund by hand)`
              : ""),
        );
        return 0;
      }
      case "resolve": {
        const [payment] = positional(rest, 1, "<payment>") as [string];
        await resolveQuarantined(db, payment, { reason, now });
        io.out(`${payment} resolved by hand`);
        return 0;
      }
      default: {
        const [typed] = positional(rest, 1, "<namespace>") as [string];
        const namespace = typed.toLowerCase();
        const state = await setSuspended(db, namespace, sub === "suspend", { reason, now });
        io.out(`${namespace} is now ${state}`);
        return 0;
      }
    }
  } catch (err) {
    if (!(err instanceof BillingOperatorError)) throw err;
    io.err(`namereg billing: ${err.message}`);
    return 1;
  } finally {
    await rt.database.close();
  }
}
