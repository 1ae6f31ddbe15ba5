// sendTransaction, getTransaction, getTransactions.
import { MalformedEnvelopeError, type TransactionRecord } from "../../chain/chain.ts";
import { parseToid, TX_MASK, toid } from "../../chain/toid.ts";
import { ledgerBounds, type MethodHandler } from "../context.ts";
import { unixString } from "../encodings.ts";
import { invalidParams, invalidRequest } from "../errors.ts";
import {
  optionalNumber,
  optionalObject,
  optionalString,
  pageLimit,
  requiredString,
  type XdrFormat,
  xdrFormat,
} from "../params.ts";

export const sendTransaction: MethodHandler = (params, ctx) => {
  const format = xdrFormat(params);
  const envelope = requiredString(params, "transaction");
  let submitted: ReturnType<typeof ctx.chain.submit>;
  try {
    submitted = ctx.chain.submit(envelope);
  } catch (error) {
    if (error instanceof MalformedEnvelopeError) throw invalidParams("invalid_xdr");
    throw error;
  }
  const latest = ctx.chain.latest;
  return {
    status: submitted.status,
    hash: submitted.hash,
    latestLedger: latest.sequence,
    latestLedgerCloseTime: unixString(latest.closeTime),
    ...(submitted.errorResult === undefined
      ? {}
      : format === "json"
        ? { errorResultJson: submitted.errorResult.toJson() }
        : { errorResultXdr: submitted.errorResult.toXdr("base64") }),
  };
};

/** The transaction fields getTransaction and getTransactions share. */
function transactionInfo(record: TransactionRecord, format: XdrFormat) {
  const applied = record.applied;
  const contractEvents = applied.operationEvents.map((events) => events.map((e) => e.toXdr("base64")));
  const transactionEvents = applied.transactionEvents.map((e) => e.toXdr("base64"));
  const diagnostics =
    applied.meta.type === "v4" ? applied.meta.v4.diagnosticEvents.map((e) => e.toXdr("base64")) : [];
  const events =
    contractEvents.length === 0 && transactionEvents.length === 0
      ? undefined
      : {
          ...(transactionEvents.length === 0 ? {} : { transactionEventsXdr: transactionEvents }),
          ...(contractEvents.length === 0 ? {} : { contractEventsXdr: contractEvents }),
        };
  return {
    status: applied.successful ? "SUCCESS" : "FAILED",
    txHash: record.hash,
    applicationOrder: record.applicationOrder,
    feeBump: applied.tx.feeBump !== undefined,
    ...(format === "json"
      ? {
          envelopeJson: applied.tx.envelope.toJson(),
          resultJson: applied.result.toJson(),
          resultMetaJson: applied.meta.toJson(),
        }
      : {
          envelopeXdr: record.envelopeXdr,
          resultXdr: record.resultXdr,
          resultMetaXdr: record.resultMetaXdr,
        }),
    ...(events === undefined ? {} : { events }),
    // As a node with ENABLE_SOROBAN_DIAGNOSTIC_EVENTS answers: the diagnostic events of a failed invocation.
    ...(diagnostics.length === 0 ? {} : { diagnosticEventsXdr: diagnostics }),
    ledger: record.ledger.sequence,
  };
}

function parseHash(params: Parameters<MethodHandler>[0]): string {
  const hash = requiredString(params, "hash");
  if (hash.length !== 64) throw invalidParams(`unexpected hash length (${hash.length})`);
  if (!/^[0-9a-fA-F]{64}$/.test(hash)) throw invalidParams(`incorrect hash: ${hash}`);
  return hash.toLowerCase();
}

export const getTransaction: MethodHandler = (params, ctx) => {
  const format = xdrFormat(params);
  const hash = parseHash(params);
  const { latest, oldest } = ledgerBounds(ctx);
  const base = {
    latestLedger: latest.sequence,
    latestLedgerCloseTime: unixString(latest.closeTime),
    oldestLedger: oldest.sequence,
    oldestLedgerCloseTime: unixString(oldest.closeTime),
  };
  const record = ctx.chain.transaction(hash);
  if (record === undefined) return { status: "NOT_FOUND", txHash: hash, ...base };
  return { ...base, ...transactionInfo(record, format), createdAt: unixString(record.ledger.closeTime) };
};

export const getTransactions: MethodHandler = (params, ctx) => {
  const format = xdrFormat(params);
  const pagination = optionalObject(params, "pagination");
  const cursor = pagination === undefined ? undefined : optionalString(pagination, "cursor");
  const limit = pageLimit(
    pagination,
    ctx.limits.defaultTransactionsLimit,
    ctx.limits.maxTransactionsLimit,
    invalidRequest,
  );
  const { latest, oldest } = ledgerBounds(ctx);
  let startLedger = optionalNumber(params, "startLedger") ?? 0;
  let afterTx = 0;
  if (cursor !== undefined && cursor !== "") {
    if (startLedger !== 0) throw invalidParams("startLedger and cursor cannot both be set");
    if (!/^\d+$/.test(cursor)) throw invalidParams(`invalid cursor: ${cursor}`);
    const position = parseToid(BigInt(cursor));
    startLedger = position.ledger;
    afterTx = position.tx;
  } else if (startLedger === 0) {
    throw invalidParams("startLedger must be positive");
  }
  if (startLedger < oldest.sequence || startLedger > latest.sequence) {
    throw invalidRequest(
      `start ledger must be between the oldest ledger: ${oldest.sequence} and the latest ledger: ${latest.sequence} for this rpc instance`,
    );
  }
  const transactions = [];
  let next = toid(latest.sequence, TX_MASK, 1);
  scan: for (let seq = startLedger; seq <= latest.sequence; seq++) {
    const ledger = ctx.chain.ledger(seq);
    if (ledger === undefined) continue;
    for (const record of ctx.chain.transactionsOf(ledger)) {
      if (seq === startLedger && record.applicationOrder <= afterTx) continue;
      transactions.push({ ...transactionInfo(record, format), createdAt: ledger.closeTime });
      next = toid(seq, record.applicationOrder, 1);
      if (transactions.length >= limit) break scan;
    }
  }
  return {
    transactions,
    latestLedger: latest.sequence,
    latestLedgerCloseTimestamp: latest.closeTime,
    oldestLedger: oldest.sequence,
    oldestLedgerCloseTimestamp: oldest.closeTime,
    cursor: next.toString(),
  };
};
