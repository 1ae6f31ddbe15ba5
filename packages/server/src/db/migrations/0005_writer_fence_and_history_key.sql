CREATE TABLE "writer_fence" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"epoch" bigint DEFAULT 0 NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "indexer_state" ADD COLUMN "rpc_failing_since" timestamp with time zone;--> statement-breakpoint
-- Hand-added before the generated index: a database written by two indexers at once (the defect this key
-- prevents) holds duplicate (event, node) rows; keep the first of each so the unique index can be built.
DELETE FROM "name_history" a USING "name_history" b WHERE a."event_id" = b."event_id" AND a."node" = b."node" AND a."id" > b."id";--> statement-breakpoint
CREATE UNIQUE INDEX "name_history_event_node_idx" ON "name_history" USING btree ("event_id","node");