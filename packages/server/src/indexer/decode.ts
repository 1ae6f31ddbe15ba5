// From an RPC event to an archive row and, for naming events, a decoded event. Decoding failures are kept
// with the row (the event is archived all the same and dead-lettered), never thrown.
import { type ContractEvent, decodeEventXdr, EventDecodeError, subjectOfEvent } from "@namereg/protocol";
import type { RawEvent } from "../chain/rpc-client.ts";
import { ledgerOfCursor } from "../chain/rpc-client.ts";

export interface ArchiveRow {
  id: string;
  contractId: string;
  ledger: number;
  at: Date | null;
  txHash: string;
  transactionIndex: number;
  operationIndex: number;
  inSuccessfulContractCall: boolean;
  topics: string[];
  value: string;
  type: string | null;
  subject: string | null;
  namespace: string | null;
}

export type Decoded =
  | { kind: "naming"; event: ContractEvent }
  | { kind: "foreign" }
  | { kind: "invalid"; error: string };

export interface IncomingEvent {
  row: ArchiveRow;
  decoded: Decoded;
}

/** The last close time read, and what it read as. */
let lastClosedAt: string | undefined;
let lastTime: Date | null = null;

/**
 * Chain time from the RPC's RFC 3339 close time; null when absent or unreadable, never "now". A page's events
 * come ledger by ledger, so most carry their predecessor's close time: they get the same (never mutated) Date,
 * read once, and db/copy.ts formats it once.
 */
export function chainTime(ledgerClosedAt: string | undefined): Date | null {
  if (ledgerClosedAt === undefined || ledgerClosedAt === "") return null;
  if (ledgerClosedAt === lastClosedAt) return lastTime;
  const t = Date.parse(ledgerClosedAt);
  lastClosedAt = ledgerClosedAt;
  lastTime = Number.isNaN(t) ? null : new Date(t);
  return lastTime;
}

function symbolName(topicB64: string | undefined): string | null {
  if (topicB64 === undefined) return null;
  // scvSymbol = type 15; a short symbol's XDR is tiny, decoding it alone is cheap and exact.
  const bytes = Buffer.from(topicB64, "base64");
  if (bytes.length < 8 || bytes.readUInt32BE(0) !== 15) return null;
  const len = bytes.readUInt32BE(4);
  return bytes.length >= 8 + len ? bytes.toString("utf8", 8, 8 + len) : null;
}

export function decodeRawEvent(raw: RawEvent): IncomingEvent {
  let decoded: Decoded;
  try {
    const event = decodeEventXdr(raw.topic, raw.value);
    decoded = event === null ? { kind: "foreign" } : { kind: "naming", event };
  } catch (err) {
    decoded = { kind: "invalid", error: err instanceof EventDecodeError ? err.message : "undecodable event" };
  }
  const row: ArchiveRow = {
    id: raw.id,
    contractId: raw.contractId,
    ledger: raw.ledger ?? ledgerOfCursor(raw.id),
    at: chainTime(raw.ledgerClosedAt),
    txHash: raw.txHash,
    transactionIndex: raw.transactionIndex ?? 0,
    operationIndex: raw.operationIndex ?? 0,
    inSuccessfulContractCall: raw.inSuccessfulContractCall,
    topics: raw.topic,
    value: raw.value,
    type: decoded.kind === "naming" ? decoded.event.type : symbolName(raw.topic[0]),
    subject: decoded.kind === "naming" ? subjectOfEvent(decoded.event) : null,
    namespace: null,
  };
  return { row, decoded };
}
