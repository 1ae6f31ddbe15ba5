// One event definition: its emitting contract, topic layout, data codec and archive subject.
import { type Codec, type CodecValue, hash32, u64 } from "../scval.ts";

export class EventDecodeError extends Error {
  readonly eventName: string | null;
  constructor(eventName: string | null, message: string, options?: { cause?: unknown }) {
    super(eventName ? `${eventName}: ${message}` : message, options);
    this.name = "EventDecodeError";
    this.eventName = eventName;
  }
}

export type TopicSpec = readonly (readonly [string, Codec<unknown>])[];
export type TopicValues<S extends TopicSpec> = { [E in S[number] as E[0]]: CodecValue<E[1]> };

/** The contract that emits an event: each event has exactly one owner, recorded once in defs.ts. */
export type EventContract = "registry" | "registrar" | "resolver" | "primary" | "lookup" | "allocator";

/**
 * Where an event's archive subject (`/v1/events?subject=`) comes from: a topic field, a field of its data
 * struct, or nothing (contract-wide settings).
 */
export type SubjectSource = { topic: string } | { data: string } | null;

export interface EventDef<C extends EventContract, N extends string, S extends TopicSpec, D> {
  readonly name: N;
  readonly contract: C;
  readonly topics: S;
  readonly data: Codec<D>;
  readonly subject: SubjectSource;
}

/** The subject defaults to the first topic (node, address, claim id or receipt key), or none without topics. */
export function def<const C extends EventContract, const N extends string, const S extends TopicSpec, D>(
  contract: C,
  name: N,
  topics: S,
  data: Codec<D>,
  subject: SubjectSource = topics[0] === undefined ? null : { topic: topics[0][0] },
): EventDef<C, N, S, D> {
  return { name, contract, topics, data, subject };
}

export const node = hash32;
export const generation = u64;
