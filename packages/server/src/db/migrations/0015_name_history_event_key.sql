-- Hand-written in place of the generated DROP INDEX + ADD PRIMARY KEY: the (event_id, node) unique index
-- becomes the primary key as it stands (renamed name_history_pkey), instead of being dropped and built again
-- under the table's lock; it already holds every row once. The primary key of `id` alone goes: no query reads it.
ALTER TABLE "name_history" DROP CONSTRAINT "name_history_pkey";--> statement-breakpoint
ALTER TABLE "name_history" ADD CONSTRAINT "name_history_pkey" PRIMARY KEY USING INDEX "name_history_event_node_idx";
