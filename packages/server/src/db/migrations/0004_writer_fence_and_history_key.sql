CREATE TABLE "writer_fence" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"epoch" bigint DEFAULT 0 NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "indexer_state" ADD COLUMN "rpc_failing_since" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "name_history_event_node_idx" ON "name_history" USING btree ("event_id","node");