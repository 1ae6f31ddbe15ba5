// The feature switches `namereg dev` takes from its environment. The demo shows every feature, so the marketplace
// and billing are on unless MARKET_ENABLED / BILLING_ENABLED say false; when on, dev supplies what the devnet's
// demo accounts make true (escrow and billing accounts, start ledgers) and keeps the operator's tunables (fee,
// price, grace, poll intervals) where they are set. A value that is not a boolean is passed on untouched, so the
// configuration refuses it with the same message `start` gives.
import { demoKeypair, type NamingDevnet } from "@namereg/devnet";
import { envSchema } from "../config/env-schema.ts";
import type { Env } from "../config/index.ts";

export interface DevFeatures {
  /** True when the demo marketplace runs (and `forsale` is listed). */
  readonly market: boolean;
  /** True when demo billing runs (and the demo subscriptions are paid). */
  readonly billing: boolean;
  /** What dev sets in the environment it runs `start` with. */
  readonly env: Env;
}

type Switch = "MARKET_ENABLED" | "BILLING_ENABLED";

export function devFeatures(env: Env, devnet: Pick<NamingDevnet, "chain">): DevFeatures {
  const market = devSwitch(env, "MARKET_ENABLED");
  const billing = devSwitch(env, "BILLING_ENABLED");
  return {
    market: market === true,
    billing: billing === true,
    // Off (or not a boolean): the variable as given is all the configuration needs.
    env: {
      ...(market === true ? marketEnv(devnet, env) : {}),
      ...(billing === true ? billingEnv(devnet, env) : {}),
    },
  };
}

/** On when unset (the demo's default), else the configuration's reading; null for a value it will refuse. */
function devSwitch(env: Env, name: Switch): boolean | null {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return true;
  const parsed = envSchema.shape[name].safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** The demo marketplace: escrowed by the demo `escrow` account, 250 bps fee unless MARKET_FEE_BPS says otherwise. */
function marketEnv(devnet: Pick<NamingDevnet, "chain">, env: Env): Env {
  const escrow = demoKeypair("escrow");
  return {
    MARKET_ENABLED: "true",
    ESCROW_ACCOUNT: escrow.publicKey(),
    ESCROW_SECRET: escrow.secret(),
    MARKET_FEE_BPS: env.MARKET_FEE_BPS ?? "250",
    ESCROW_START_LEDGER: String(devnet.chain.latest.sequence),
  };
}

/**
 * The demo billing: paid to the demo `billing` account, 10 XLM per period. Within its grace window unless
 * BILLING_GRACE_UNTIL says otherwise, so the directory lists everything as before; a past date shows enforcement.
 */
function billingEnv(devnet: Pick<NamingDevnet, "chain">, env: Env): Env {
  const graceDays = 30;
  return {
    BILLING_ENABLED: "true",
    BILLING_ACCOUNT: demoKeypair("billing").publicKey(),
    BILLING_GRACE_UNTIL:
      env.BILLING_GRACE_UNTIL ?? new Date(Date.now() + graceDays * 86_400_000).toISOString(),
    BILLING_PRICE_XLM: env.BILLING_PRICE_XLM ?? "10",
    BILLING_START_LEDGER: String(devnet.chain.latest.sequence),
    BILLING_POLL_MS: env.BILLING_POLL_MS ?? "1000",
  };
}
