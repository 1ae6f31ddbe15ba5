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
ALTER TABLE "claim_objections" ADD COLUMN "filed_ledger" integer;--> statement-breakpoint
ALTER TABLE "claim_objections" ADD COLUMN "ended_ledger" integer;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "announced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "fee_outcome" text;--> statement-breakpoint
ALTER TABLE "fee_receipts" ADD COLUMN "epoch" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "fee_receipts" ADD COLUMN "claim_id" bigint;--> statement-breakpoint
ALTER TABLE "fee_receipts" ADD COLUMN "paid_ledger" integer;--> statement-breakpoint
ALTER TABLE "fee_receipts" ADD COLUMN "settled_ledger" integer;