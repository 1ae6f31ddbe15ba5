// The package's public surface: what the CLI wires together, for benchmarks, scripts and other packages.
// Test fixtures are a separate entry point, `@namereg/server/testing`.
export { type App, type AppDeps, buildApp } from "./api/app.ts";
export { ChainClient } from "./chain/chain-client.ts";
export { ContractReader } from "./chain/contract-reader.ts";
export { type LatestLedger, type RawEvent, RpcClient, type RpcClientOptions } from "./chain/rpc-client.ts";
export { type Config, type Env, loadConfig } from "./config/index.ts";
export { type Database, type Db, openDatabase } from "./db/index.ts";
export { CHANGES_CHANNEL } from "./db/outbox.ts";
export * as tables from "./db/tables.ts";
export { runEscrowWatcherProcess } from "./escrow/watcher-process.ts";
export { type BackfillResult, backfill } from "./indexer/backfill.ts";
export { decodeRawEvent } from "./indexer/decode.ts";
export { fetchBatch } from "./indexer/fetch-batch.ts";
export { type CoreContract, Indexer, type IndexerOptions } from "./indexer/indexer.ts";
export { contractEnv } from "./runtime/commands.ts";
export { tuneGcForServing } from "./runtime/gc-tuning.ts";
export { WebhookDeliverer } from "./webhooks/deliverer.ts";
export { takeDelivererEpoch } from "./webhooks/store.ts";
