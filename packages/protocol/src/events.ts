// Every contract event of docs/contracts.md "Events": topic layout and data layout, with encode (devnet) and
// decode (indexer). A topic list whose first symbol is not a naming event decodes to null (e.g. the native
// token's `transfer`), so the indexer archives it without projecting; a known event with a wrong layout throws
// EventDecodeError, which the indexer dead-letters.
// events/def.ts builds a definition, events/payloads.ts holds the shared data structs, events/defs.ts every event
// and the types derived from them, events/codec.ts encoding and decoding.

export {
  decodeEvent,
  decodeEventXdr,
  encodeEvent,
  eventNameOf,
  FEE_OUTCOME_VALUES,
  isEventName,
  subjectOfEvent,
} from "./events/codec.ts";
export { type EventContract, EventDecodeError, type EventDef, type SubjectSource } from "./events/def.ts";
export {
  CONTRACT_OF_EVENT,
  type ContractEvent,
  EVENT_DEFS,
  EVENT_NAMES,
  type EventName,
  type EventNameOf,
  type EventOfType,
  type EventsOf,
} from "./events/defs.ts";
export {
  LegacyNamespaceAllocated,
  NameChange,
  NamespaceAllocated,
  SubnameChange,
  TransferChange,
} from "./events/payloads.ts";
