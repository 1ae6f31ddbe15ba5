// getHealth, getNetwork, getVersionInfo, getLatestLedger, getFeeStats.
import { ledgerCloseMeta, PROTOCOL_VERSION } from "../../chain/ledger-close.ts";
import { ledgerBounds, type MethodHandler } from "../context.ts";
import { unixString } from "../encodings.ts";

export const DEVNET_VERSION = "23.0.0-namereg-devnet";

export const getHealth: MethodHandler = (_params, ctx) => {
  const { latest, oldest } = ledgerBounds(ctx);
  return {
    status: "healthy",
    latestLedger: latest.sequence,
    latestLedgerCloseTime: unixString(latest.closeTime),
    oldestLedger: oldest.sequence,
    oldestLedgerCloseTime: unixString(oldest.closeTime),
    ledgerRetentionWindow: visibleWindow(ctx),
  };
};

function visibleWindow(ctx: Parameters<MethodHandler>[1]): number {
  return Math.min(ctx.chain.retentionLedgers, ctx.faults().retentionLedgers ?? Number.POSITIVE_INFINITY);
}

export const getNetwork: MethodHandler = (_params, ctx) => ({
  friendbotUrl: ctx.friendbotUrl,
  passphrase: ctx.chain.networkPassphrase,
  protocolVersion: PROTOCOL_VERSION,
});

export const getVersionInfo: MethodHandler = () => ({
  version: DEVNET_VERSION,
  commitHash: "0000000000000000000000000000000000000000",
  buildTimestamp: "2026-01-01T00:00:00",
  captiveCoreVersion: "namereg-devnet (no stellar-core)",
  protocolVersion: PROTOCOL_VERSION,
});

export const getLatestLedger: MethodHandler = (_params, ctx) => {
  const latest = ctx.chain.latest;
  return {
    id: latest.hashHex,
    protocolVersion: PROTOCOL_VERSION,
    sequence: latest.sequence,
    closeTime: unixString(latest.closeTime),
    headerXdr: latest.headerXdr,
    metadataXdr: ledgerCloseMeta(latest).toXdr("base64"),
  };
};

const PERCENTILES = [10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99] as const;

function distribution(fees: bigint[], ledgerCount: number) {
  const sorted = [...fees].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const at = (p: number): string => {
    if (sorted.length === 0) return "100";
    const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
    return String(sorted[Math.max(0, index)]);
  };
  const counts = new Map<bigint, number>();
  for (const f of sorted) counts.set(f, (counts.get(f) ?? 0) + 1);
  let mode = sorted.length === 0 ? 100n : (sorted[0] as bigint);
  for (const [fee, n] of counts) if (n > (counts.get(mode) ?? 0)) mode = fee;
  const out: Record<string, string | number> = {
    max: sorted.length === 0 ? "100" : String(sorted[sorted.length - 1]),
    min: sorted.length === 0 ? "100" : String(sorted[0]),
    mode: String(mode),
  };
  for (const p of PERCENTILES) out[`p${p}`] = at(p);
  out.transactionCount = String(sorted.length);
  out.ledgerCount = ledgerCount;
  return out;
}

/** Inclusion fee per operation over the last 50 (Soroban) and 10 (classic) ledgers, as stellar-rpc. */
export const getFeeStats: MethodHandler = (_params, ctx) => {
  const chain = ctx.chain;
  const latest = chain.latest.sequence;
  const collect = (ledgers: number, soroban: boolean) => {
    const fees: bigint[] = [];
    let count = 0;
    for (let seq = Math.max(chain.oldest.sequence, latest - ledgers + 1); seq <= latest; seq++) {
      const ledger = chain.ledger(seq);
      if (ledger === undefined) continue;
      count++;
      for (const t of ledger.transactions) {
        const tx = t.applied.tx;
        if ((tx.inner.sorobanData !== undefined) !== soroban) continue;
        const bid = tx.feeBump?.fee ?? tx.inner.fee;
        const resource = tx.inner.sorobanData?.resourceFee ?? 0n;
        const ops = tx.inner.operations.length + (tx.feeBump === undefined ? 0 : 1);
        fees.push((bid - resource) / BigInt(Math.max(1, ops)));
      }
    }
    return distribution(fees, count);
  };
  return { sorobanInclusionFee: collect(50, true), inclusionFee: collect(10, false), latestLedger: latest };
};
