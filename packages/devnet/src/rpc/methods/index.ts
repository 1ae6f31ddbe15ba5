// The JSON-RPC method table.
import type { MethodHandler } from "../context.ts";
import { getEvents } from "./events.ts";
import { getLedgerEntries } from "./ledger-entries.ts";
import { getLedgers } from "./ledgers.ts";
import { getFeeStats, getHealth, getLatestLedger, getNetwork, getVersionInfo } from "./network.ts";
import { simulateTransaction } from "./simulate.ts";
import { getTransaction, getTransactions, sendTransaction } from "./transactions.ts";

export const METHODS: ReadonlyMap<string, MethodHandler> = new Map<string, MethodHandler>([
  ["getHealth", getHealth],
  ["getNetwork", getNetwork],
  ["getVersionInfo", getVersionInfo],
  ["getLatestLedger", getLatestLedger],
  ["getLedgers", getLedgers],
  ["getLedgerEntries", getLedgerEntries],
  ["getEvents", getEvents],
  ["simulateTransaction", simulateTransaction],
  ["sendTransaction", sendTransaction],
  ["getTransaction", getTransaction],
  ["getTransactions", getTransactions],
  ["getFeeStats", getFeeStats],
]);
