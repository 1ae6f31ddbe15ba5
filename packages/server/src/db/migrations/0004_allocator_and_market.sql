CREATE TABLE "claim_credits" (
	"kind" text NOT NULL,
	"payee" text NOT NULL,
	"credited" bigint NOT NULL,
	"claimed" bigint NOT NULL,
	"updated_ledger" integer NOT NULL,
	CONSTRAINT "claim_credits_kind_payee_pk" PRIMARY KEY("kind","payee")
);
--> statement-breakpoint
CREATE TABLE "claim_fee_policy" (
	"allocator_id" text PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"amount" bigint NOT NULL,
	"recipient" text NOT NULL,
	"ledger" integer NOT NULL,
	"at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "claim_fee_receipts" (
	"label" text NOT NULL,
	"epoch" integer NOT NULL,
	"key" text NOT NULL,
	"claim_id" bigint,
	"claimant" text NOT NULL,
	"token" text NOT NULL,
	"recipient" text,
	"amount" bigint NOT NULL,
	"outcome" text NOT NULL,
	"refund_amount" bigint NOT NULL,
	"treasury_amount" bigint NOT NULL,
	"paid_ledger" integer,
	"settled_ledger" integer,
	CONSTRAINT "claim_fee_receipts_label_epoch_pk" PRIMARY KEY("label","epoch")
);
--> statement-breakpoint
CREATE TABLE "claim_fee_sweeps" (
	"event_id" text PRIMARY KEY NOT NULL,
	"recipient" text NOT NULL,
	"amount" bigint NOT NULL,
	"ledger" integer NOT NULL,
	"at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "market_intents" (
	"id" text PRIMARY KEY NOT NULL,
	"listing_id" text NOT NULL,
	"buyer" text NOT NULL,
	"memo" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"superseded" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "market_listings" (
	"id" text PRIMARY KEY NOT NULL,
	"namespace" text NOT NULL,
	"node" text NOT NULL,
	"seller" text NOT NULL,
	"price" bigint NOT NULL,
	"fee_bps" integer NOT NULL,
	"bond" bigint NOT NULL,
	"bond_memo" text NOT NULL,
	"state" text NOT NULL,
	"bond_payment" text,
	"cancel_requested_at" timestamp with time zone,
	"cancel_ledger" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"listed_at" timestamp with time zone,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "market_payments" (
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
	"listing_id" text,
	"intent_id" text,
	"buyer" text,
	"held" bigint,
	"proposal_expires" bigint,
	"verdict" text,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "market_payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"purpose" text NOT NULL,
	"destination" text NOT NULL,
	"amount" bigint NOT NULL,
	"state" text NOT NULL,
	"envelope" text,
	"tx_hash" text,
	"paid_ledger" integer,
	"parked_reason" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "market_sales" (
	"id" text PRIMARY KEY NOT NULL,
	"listing_id" text NOT NULL,
	"namespace" text NOT NULL,
	"node" text NOT NULL,
	"price" bigint NOT NULL,
	"fee" bigint NOT NULL,
	"seller" text NOT NULL,
	"buyer" text NOT NULL,
	"settled_at" timestamp with time zone NOT NULL,
	"wash_flagged" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_cursors" (
	"name" text PRIMARY KEY NOT NULL,
	"account" text NOT NULL,
	"cursor" text,
	"start_ledger" integer NOT NULL,
	"polled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "claim_objections" ADD COLUMN "filed_ledger" integer;--> statement-breakpoint
ALTER TABLE "claim_objections" ADD COLUMN "ended_ledger" integer;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "announced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "fee_outcome" text;--> statement-breakpoint
ALTER TABLE "fee_receipts" ADD COLUMN "epoch" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "fee_receipts" ADD COLUMN "claim_id" bigint;--> statement-breakpoint
ALTER TABLE "fee_receipts" ADD COLUMN "paid_ledger" integer;--> statement-breakpoint
ALTER TABLE "fee_receipts" ADD COLUMN "settled_ledger" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "market_intents_memo_idx" ON "market_intents" USING btree ("memo");--> statement-breakpoint
CREATE UNIQUE INDEX "market_intents_current_idx" ON "market_intents" USING btree ("listing_id","buyer") WHERE not superseded;--> statement-breakpoint
CREATE UNIQUE INDEX "market_listings_bond_memo_idx" ON "market_listings" USING btree ("bond_memo");--> statement-breakpoint
CREATE INDEX "market_listings_state_idx" ON "market_listings" USING btree ("state","listed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "market_listings_open_idx" ON "market_listings" USING btree ("node") WHERE state in ('pending_bond', 'active');--> statement-breakpoint
CREATE INDEX "market_payments_state_idx" ON "market_payments" USING btree ("state");--> statement-breakpoint
CREATE INDEX "market_payments_listing_idx" ON "market_payments" USING btree ("listing_id");--> statement-breakpoint
CREATE INDEX "market_payouts_state_idx" ON "market_payouts" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "market_sales_node_idx" ON "market_sales" USING btree ("node","settled_at");