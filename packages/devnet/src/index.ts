// Public API of the devnet package.
export {
  Chain,
  type ChainOptions,
  DEFAULT_RETENTION_LEDGERS,
  STANDALONE_PASSPHRASE,
  type SubmitResult,
  type TransactionRecord,
} from "./chain/chain.ts";
export type { ClosedLedger } from "./chain/ledger-close.ts";
export { PROTOCOL_VERSION } from "./chain/ledger-close.ts";
export type { Durability } from "./chain/soroban/contract-data.ts";
export { HostError } from "./chain/soroban/host-error.ts";
export { NATIVE_TOKEN_KIND } from "./chain/soroban/native-token.ts";
export type { SyntheticEvent } from "./chain/synthetic-events.ts";
export { formatEventId, parseEventCursor, toid } from "./chain/toid.ts";
export { type Devnet, type DevnetOptions, startDevnet } from "./devnet.ts";
export {
  type Contract,
  ContractError,
  type ContractStorage,
  type InvocationContext,
} from "./host/contract.ts";
export { type Faults, NO_FAULTS } from "./rpc/faults.ts";
