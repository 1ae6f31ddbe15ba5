-- Generated. A change of collation alone rewrites no table, but PostgreSQL rebuilds the indexes of these columns
-- (names_pkey, name_history_pkey and _node_idx, events_tx_hash_idx, the subnames and resolver_records keys) under
-- each table's lock: on a large mirror the upgrade holds the indexer and reads of those tables for that long.
ALTER TABLE "events" ALTER COLUMN "tx_hash" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "name_history" ALTER COLUMN "node" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "names" ALTER COLUMN "node" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "resolver_records" ALTER COLUMN "node" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "subnames" ALTER COLUMN "node" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "subnames" ALTER COLUMN "parent_node" SET DATA TYPE text COLLATE "C";