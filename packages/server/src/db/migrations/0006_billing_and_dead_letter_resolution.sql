CREATE TABLE "billing_actions" (
	"id" serial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"action" text NOT NULL,
	"payment_id" text,
	"namespace" text,
	"reason" text NOT NULL,
	"detail" jsonb
);
--> statement-breakpoint
CREATE TABLE "billing_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"ledger" integer NOT NULL,
	"toid" text NOT NULL,
	"closed_at" timestamp with time zone NOT NULL,
	"tx_hash" text NOT NULL,
	"operation_index" integer NOT NULL,
	"source" text NOT NULL,
	"asset" text NOT NULL,
	"amount" bigint NOT NULL,
	"memo_type" text NOT NULL,
	"memo" text,
	"state" text NOT NULL,
	"reason" text,
	"namespace" text,
	"periods" integer,
	"paid_until" timestamp with time zone,
	"applied_at" timestamp with time zone,
	"resolution" text,
	"resolved_at" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dead_letters" ADD COLUMN "resolution" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "node" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "suspend_reason" text;--> statement-breakpoint
CREATE INDEX "billing_payments_state_idx" ON "billing_payments" USING btree ("state","toid");