// Encoding naming events as they appear on chain, decoding them from topics and data (or getEvents' XDR).
import type { xdr } from "@stellar/stellar-sdk";
import { ScValDecodeError, scValFromBase64, symbol } from "../scval.ts";
import { FEE_OUTCOMES } from "../structs.ts";
import { type EventContract, EventDecodeError, type EventDef, type TopicSpec } from "./def.ts";
import { type ContractEvent, EVENT_DEFS, type EventName } from "./defs.ts";

/** The subject an event is about (a node, an address, a claim id or a receipt key), for the archive. */
export function subjectOfEvent(event: ContractEvent): string | null {
  const source = EVENT_DEFS[event.type].subject;
  if (source === null) return null;
  const value =
    "topic" in source
      ? (event as unknown as Record<string, unknown>)[source.topic]
      : (event.data as Record<string, unknown>)[source.data];
  return value === null || value === undefined ? null : String(value);
}

export const FEE_OUTCOME_VALUES = FEE_OUTCOMES;

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(EVENT_DEFS, name);
}

/** Encodes a naming event as it appears on chain: topics (the name symbol first) and data. */
export function encodeEvent(event: ContractEvent): { topics: xdr.ScVal[]; data: xdr.ScVal } {
  const d = EVENT_DEFS[event.type] as EventDef<EventContract, string, TopicSpec, unknown>;
  const fields = event as unknown as Record<string, unknown>;
  const topics = [symbol.encode(d.name), ...d.topics.map(([field, codec]) => codec.encode(fields[field]))];
  return { topics, data: d.data.encode(fields.data) };
}

/** The event name of a topic list, or null when the first topic is not a symbol. */
export function eventNameOf(topics: readonly xdr.ScVal[]): string | null {
  const first = topics[0];
  return first !== undefined && first.type === "scvSymbol" ? first.sym.toString() : null;
}

/**
 * Decodes a naming event. Returns null when the topics do not name a naming event (other contracts' events);
 * throws EventDecodeError when they do but the layout is wrong.
 */
export function decodeEvent(topics: readonly xdr.ScVal[], data: xdr.ScVal): ContractEvent | null {
  const name = eventNameOf(topics);
  if (name === null || !isEventName(name)) return null;
  const d = EVENT_DEFS[name] as EventDef<EventContract, string, TopicSpec, unknown>;
  if (topics.length !== d.topics.length + 1) {
    throw new EventDecodeError(name, `expected ${d.topics.length + 1} topics, got ${topics.length}`);
  }
  try {
    const out: Record<string, unknown> = { type: name };
    d.topics.forEach(([field, codec], i) => {
      out[field] = codec.decode(topics[i + 1] as xdr.ScVal, `topic[${i + 1}]`);
    });
    out.data = d.data.decode(data, "data");
    return out as ContractEvent;
  } catch (err) {
    if (err instanceof ScValDecodeError) throw new EventDecodeError(name, err.message, { cause: err });
    throw err;
  }
}

/** As decodeEvent, from the base64 XDR of getEvents (`topic[]`, `value`). */
export function decodeEventXdr(topicsB64: readonly string[], valueB64: string): ContractEvent | null {
  let topics: xdr.ScVal[];
  let data: xdr.ScVal;
  try {
    topics = topicsB64.map((t, i) => scValFromBase64(t, `topic[${i}]`));
    data = scValFromBase64(valueB64, "data");
  } catch (err) {
    throw new EventDecodeError(null, err instanceof Error ? err.message : "undecodable XDR", { cause: err });
  }
  return decodeEvent(topics, data);
}
