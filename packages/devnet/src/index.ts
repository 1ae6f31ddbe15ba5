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
export { describeDevnet, runDevnetCli } from "./cli.ts";
export { type Devnet, type DevnetOptions, startDevnet } from "./devnet.ts";
export {
  type Contract,
  ContractError,
  type ContractStorage,
  type InvocationContext,
} from "./host/contract.ts";
export {
  deployNamingContracts,
  NAMING_KINDS,
  type NamingDevnet,
  type NamingDevnetOptions,
  SCENARIOS,
  type ScenarioName,
  startNamingDevnet,
} from "./naming-devnet.ts";
export { type Faults, NO_FAULTS } from "./rpc/faults.ts";
export {
  LimitsValidationError,
  type RpcLimits,
  type RpcLimitsUpdate,
  resolveLimits,
  STELLAR_RPC_LIMITS,
} from "./rpc/limits.ts";
export {
  type BulkOptions,
  type BulkSummary,
  bulkHolder,
  DEFAULT_BULK,
  runBulkScenario,
} from "./scenarios/bulk.ts";
export {
  DEMO_ETHEREUM,
  DEMO_FEE_XLM,
  DEMO_MEMO,
  DEMO_TEXT,
  type DemoManifest,
  type DemoNamespace,
  type NamingContracts,
  runDemoScenario,
} from "./scenarios/demo.ts";
export {
  DEMO_ROLE_NOTES,
  DEMO_ROLES,
  type DemoRole,
  demoAccounts,
  demoKeypair,
} from "./scenarios/demo-keys.ts";
export { type LegacyNamespace, legacyNamespace } from "./scenarios/legacy-namespace.ts";
export { namespaceWithoutSubnames } from "./scenarios/no-subnames.ts";
export {
  resultCode,
  SimulationFailedError,
  type Submitted,
  settlingWallet,
  TransactionFailedError,
  Wallet,
} from "./scenarios/wallet.ts";
