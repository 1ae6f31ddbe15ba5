CREATE TABLE "change_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"namespace" text NOT NULL,
	"name" text,
	"node" text,
	"ledger" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"event_id" text NOT NULL,
	"at" timestamp with time zone,
	"data" jsonb NOT NULL,
	"backfill" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "change_outbox_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"pruned_through" bigint DEFAULT 0 NOT NULL,
	"pruned_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "lapse_announced_for" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "change_outbox_event_type_idx" ON "change_outbox" USING btree ("event_id","type");--> statement-breakpoint
CREATE INDEX "change_outbox_namespace_idx" ON "change_outbox" USING btree ("namespace","id");