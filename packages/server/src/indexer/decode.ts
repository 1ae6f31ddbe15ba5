// From an RPC event to an archive row and, for naming events, a decoded event. Decoding failures are kept
// with the row (the event is archived all the same and dead-lettered), never thrown.
import { type ContractEvent, decodeEventXdr, EventDecodeError } from "@namereg/protocol";
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

/** Chain time from the RPC's RFC 3339 close time; null when absent or unreadable, never "now". */
export function chainTime(ledgerClosedAt: string | undefined): Date | null {
  if (ledgerClosedAt === undefined || ledgerClosedAt === "") return null;
  const t = Date.parse(ledgerClosedAt);
  return Number.isNaN(t) ? null : new Date(t);
}

function symbolName(topicB64: string | undefined): string | null {
  if (topicB64 === undefined) return null;
  // scvSymbol = type 15; a short symbol's XDR is tiny, decoding it alone is cheap and exact.
  const bytes = Buffer.from(topicB64, "base64");
  if (bytes.length < 8 || bytes.readUInt32BE(0) !== 15) return null;
  const len = bytes.readUInt32BE(4);
  return bytes.length >= 8 + len ? bytes.toString("utf8", 8, 8 + len) : null;
}

/** The subject an event is about, as `/v1/events?subject=` matches it. */
export function subjectOf(event: ContractEvent): string | null {
  switch (event.type) {
    case "set_pri":
    case "clr_pri":
      return event.address;
    case "clm_ann":
    case "clm_obj":
    case "obj_end":
    case "clm_resp":
    case "clm_awd":
    case "clm_wd":
    case "clm_rej":
    case "clm_exp":
      return event.id.toString();
    case "fee_paid":
    case "fee_done":
      return event.key;
    case "fee_cred":
    case "fee_pull":
      return event.data.payee;
    case "fee_sweep":
      return event.data.recipient;
    case "fee_cfg":
    case "sub_pol":
    case "chn_pol":
    case "upg_prop":
    case "upg_exec":
    case "upg_canc":
      return null;
    default:
      return event.node;
  }
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
    subject: decoded.kind === "naming" ? subjectOf(decoded.event) : null,
    namespace: null,
  };
  return { row, decoded };
}
