CREATE TABLE "chain_identity" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"network_passphrase" text,
	"ledger" integer,
	"ledger_hash" text,
	"checked_at" timestamp with time zone,
	"refused_reason" text,
	"refused_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "payment_cursors" ADD COLUMN "gap_from_ledger" integer;--> statement-breakpoint
ALTER TABLE "payment_cursors" ADD COLUMN "gap_to_ledger" integer;--> statement-breakpoint
ALTER TABLE "payment_cursors" ADD COLUMN "gap_since" timestamp with time zone;