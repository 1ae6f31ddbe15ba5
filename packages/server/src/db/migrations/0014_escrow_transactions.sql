CREATE TABLE "market_escrow_transactions" (
	"tx_hash" text PRIMARY KEY NOT NULL,
	"ledger" integer NOT NULL,
	"toid" text NOT NULL,
	"closed_at" timestamp with time zone NOT NULL,
	"successful" boolean NOT NULL,
	"sequence" text NOT NULL,
	"memo_type" text NOT NULL,
	"memo" text,
	"fee_charged" bigint NOT NULL,
	"paid_fee" boolean NOT NULL,
	"envelope" text NOT NULL,
	"moves" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "market_escrow_transactions_memo_idx" ON "market_escrow_transactions" USING btree ("memo");