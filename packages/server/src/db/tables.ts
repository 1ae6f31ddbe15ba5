// Domain tables, one module per concern under tables/: the event archive and the indexer's bookkeeping, then one
// projection per contract concern, billing, sign-in and the marketplace escrow. This file is the one import point.
// Chain time (`at`, `*_at` from ledger close times) and ingestion time (`ingested_at`) are separate columns;
// a chain time that is not known stays null and is never filled with ingestion time (docs/contracts.md "Which contracts are followed").
export * from "./tables/archive.ts";
export * from "./tables/auth.ts";
export * from "./tables/billing.ts";
export * from "./tables/claims.ts";
export * from "./tables/market.ts";
export * from "./tables/names.ts";
export * from "./tables/outbox.ts";
export * from "./tables/records.ts";
export * from "./tables/webhooks.ts";
