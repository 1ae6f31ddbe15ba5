// getEvents: request validation as stellar-rpc words it, the 10,000-ledger window, cursors, truncation faults.
import { StrKey, xdr } from "@stellar/stellar-sdk";
import type { EventFilter, EventType, TopicFilter } from "../../chain/event-filter.ts";
import { LedgerRangeError, pageCursor, scanWindow } from "../../chain/event-window.ts";
import { syntheticTxHash } from "../../chain/synthetic-events.ts";
import { CursorFormatError, type EventCursor, formatEventId, parseEventCursor } from "../../chain/toid.ts";
import type { MethodHandler } from "../context.ts";
import { rfc3339, unixString } from "../encodings.ts";
import { invalidParams, invalidRequest } from "../errors.ts";
import {
  optionalNumber,
  optionalObject,
  optionalString,
  type Params,
  pageLimit,
  xdrFormat,
} from "../params.ts";

const MAX_FILTERS = 5;
const MAX_CONTRACT_IDS = 5;
const MAX_TOPICS = 5;
const MAX_SEGMENTS = 4;

function parseSegment(segment: unknown): string | null {
  if (segment === "*") return null;
  if (typeof segment !== "string") throw new Error("segment must be a string");
  return xdr.ScVal.fromXdr(segment, "base64").toXdr("base64");
}

function parseTopic(raw: unknown): TopicFilter {
  if (!Array.isArray(raw)) throw new Error("topic must be an array of segments");
  if (raw.length < 1) throw new Error("topic must have at least one segment");
  const rest = raw[raw.length - 1] === "**";
  const segments = rest ? raw.slice(0, -1) : raw;
  if (segments.length > MAX_SEGMENTS) throw new Error(`topic cannot have more than ${MAX_SEGMENTS} segments`);
  return {
    rest,
    segments: segments.map((s, i) => {
      if (s === "**") throw new Error("'**' is only allowed as the last segment");
      try {
        return parseSegment(s);
      } catch {
        throw new Error(`segment ${i + 1} invalid`);
      }
    }),
  };
}

function parseFilter(raw: unknown): EventFilter {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new Error("filter must be an object");
  const f = raw as Params;
  let types: Set<EventType> | undefined;
  const type = f.type;
  if (type !== undefined && type !== "") {
    const names = typeof type === "string" ? type.split(",") : [];
    if (names.length === 0 || !names.every((n) => n === "contract" || n === "system")) {
      throw new Error("filter type invalid: if set, type must be either 'system' or 'contract'");
    }
    types = new Set(names as EventType[]);
  }
  let contractIds: Set<string> | undefined;
  if (f.contractIds !== undefined && f.contractIds !== null) {
    if (!Array.isArray(f.contractIds)) throw new Error("contractIds must be an array");
    if (f.contractIds.length > MAX_CONTRACT_IDS)
      throw new Error(`maximum ${MAX_CONTRACT_IDS} contract IDs per filter`);
    f.contractIds.forEach((id, i) => {
      if (typeof id !== "string" || !StrKey.isValidContract(id))
        throw new Error(`contract ID ${i + 1} invalid`);
    });
    contractIds = new Set(f.contractIds as string[]);
  }
  let topics: TopicFilter[] | undefined;
  if (f.topics !== undefined && f.topics !== null) {
    if (!Array.isArray(f.topics)) throw new Error("topics must be an array");
    if (f.topics.length > MAX_TOPICS) throw new Error(`maximum ${MAX_TOPICS} topics per filter`);
    topics = f.topics.map((t, i) => {
      try {
        return parseTopic(t);
      } catch (error) {
        throw new Error(`topic ${i + 1} invalid: ${(error as Error).message}`);
      }
    });
  }
  return { types, contractIds, topics };
}

export function parseFilters(raw: unknown): EventFilter[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalidParams("invalid parameters: filters must be an array");
  if (raw.length > MAX_FILTERS) throw invalidParams(`maximum ${MAX_FILTERS} filters per request`);
  return raw.map((f, i) => {
    try {
      return parseFilter(f);
    } catch (error) {
      throw invalidParams(`filter ${i + 1} invalid: ${(error as Error).message}`);
    }
  });
}

export const getEvents: MethodHandler = (params, ctx) => {
  const format = xdrFormat(params);
  const pagination = optionalObject(params, "pagination");
  const cursorText = pagination === undefined ? undefined : optionalString(pagination, "cursor");
  const startLedger = optionalNumber(params, "startLedger") ?? 0;
  const endLedger = optionalNumber(params, "endLedger") ?? 0;
  let cursor: EventCursor | undefined;
  if (cursorText !== undefined && cursorText !== "") {
    if (startLedger !== 0 || endLedger !== 0)
      throw invalidParams("ledger ranges and cursor cannot both be set");
    try {
      cursor = parseEventCursor(cursorText);
    } catch (error) {
      if (error instanceof CursorFormatError) throw invalidParams(error.message);
      throw error;
    }
  } else if (startLedger <= 0) {
    throw invalidParams("startLedger must be positive");
  } else if (endLedger !== 0 && endLedger <= startLedger) {
    throw invalidParams("endLedger must be after startLedger");
  }
  const limit = pageLimit(pagination, ctx.limits.defaultEventsLimit, ctx.limits.maxEventsLimit);
  const filters = parseFilters(params.filters);
  const { latest, oldest } = ctx.chain;
  let window: ReturnType<typeof scanWindow>;
  try {
    window = scanWindow(
      { startLedger, endLedger, cursor },
      { oldest: oldest.sequence, latest: latest.sequence },
    );
  } catch (error) {
    if (error instanceof LedgerRangeError) throw invalidRequest(error.message);
    throw error;
  }
  const truncate = ctx.faults().truncateEventsTo;
  const pageSize = truncate === null ? limit : Math.min(limit, truncate);
  const found = ctx.chain.events.scan(window.start, window.endLedger, filters, pageSize);
  const closedAt = new Map<number, string>();
  const events = found.map(({ ledger, closeTime, stored }) => ({
    type: stored.type,
    ledger,
    ledgerClosedAt: closedAt.get(closeTime) ?? closedAt.set(closeTime, rfc3339(closeTime)).get(closeTime),
    contractId: stored.contractId,
    id: formatEventId({ ledger, tx: stored.tx, op: stored.op, event: stored.event }),
    operationIndex: stored.op,
    transactionIndex: stored.tx,
    txHash: stored.txHash === "" ? syntheticTxHash(ledger, stored.tx) : stored.txHash,
    inSuccessfulContractCall: stored.inSuccessfulContractCall,
    ...(format === "json"
      ? {
          topicJson: stored.topics.map((t) => xdr.ScVal.fromXdr(t, "base64").toJson()),
          valueJson: xdr.ScVal.fromXdr(stored.value, "base64").toJson(),
        }
      : { topic: stored.topics, value: stored.value }),
  }));
  const next = pageCursor(
    window,
    pageSize,
    found.map(({ ledger, stored }) => ({ ledger, tx: stored.tx, op: stored.op, event: stored.event })),
  );
  return {
    events,
    cursor: formatEventId(next),
    latestLedger: latest.sequence,
    oldestLedger: oldest.sequence,
    latestLedgerCloseTime: unixString(latest.closeTime),
    oldestLedgerCloseTime: unixString(oldest.closeTime),
  };
};
