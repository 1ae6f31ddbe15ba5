CREATE TABLE "claim_objections" (
	"claim_id" bigint NOT NULL,
	"objector" text NOT NULL,
	"basis" jsonb NOT NULL,
	"bond" bigint NOT NULL,
	"live" boolean NOT NULL,
	"end_reason" text,
	CONSTRAINT "claim_objections_claim_id_objector_pk" PRIMARY KEY("claim_id","objector")
);
--> statement-breakpoint
CREATE TABLE "claims" (
	"id" bigint PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"claimant" text NOT NULL,
	"basis" jsonb NOT NULL,
	"evidence" jsonb NOT NULL,
	"state" text NOT NULL,
	"announced_ledger" integer NOT NULL,
	"deadline" bigint NOT NULL,
	"response" text,
	"awarded_at" bigint,
	"updated_ledger" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dead_letters" (
	"event_id" text PRIMARY KEY NOT NULL,
	"contract_id" text NOT NULL,
	"ledger" integer NOT NULL,
	"error" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"contract_id" text NOT NULL,
	"ledger" integer NOT NULL,
	"at" timestamp with time zone,
	"tx_hash" text NOT NULL,
	"transaction_index" integer NOT NULL,
	"operation_index" integer NOT NULL,
	"in_successful_contract_call" boolean NOT NULL,
	"topics" jsonb NOT NULL,
	"value" text NOT NULL,
	"type" text,
	"subject" text,
	"namespace" text,
	"ingested_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fee_receipts" (
	"label" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"claimant" text NOT NULL,
	"token" text NOT NULL,
	"recipient" text,
	"amount" bigint NOT NULL,
	"outcome" text NOT NULL,
	"refund_amount" bigint NOT NULL,
	"treasury_amount" bigint NOT NULL,
	"ledger" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gaps" (
	"id" serial PRIMARY KEY NOT NULL,
	"contract_id" text NOT NULL,
	"from_ledger" integer NOT NULL,
	"to_ledger" integer NOT NULL,
	"reason" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "indexer_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"head_ledger" integer,
	"head_observed_at" timestamp with time zone,
	"processed_ledger" integer,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "name_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"node" text NOT NULL,
	"event_id" text NOT NULL,
	"generation" bigint NOT NULL,
	"action" text NOT NULL,
	"holder" text,
	"ledger" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"at" timestamp with time zone,
	"ingested_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "name_stats" (
	"node" text PRIMARY KEY NOT NULL,
	"resolutions" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "names" (
	"node" text PRIMARY KEY NOT NULL,
	"namespace" text NOT NULL,
	"label" text NOT NULL,
	"holder" text NOT NULL,
	"address" text NOT NULL,
	"expires_at" bigint,
	"generation" bigint NOT NULL,
	"active" boolean NOT NULL,
	"issued_ledger" integer NOT NULL,
	"issued_at" timestamp with time zone,
	"tx_hash" text NOT NULL,
	"updated_ledger" integer NOT NULL,
	"transfer_to" text,
	"transfer_expires" bigint
);
--> statement-breakpoint
CREATE TABLE "namespace_profiles" (
	"label" text PRIMARY KEY NOT NULL,
	"display_name" text,
	"logo" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "namespaces" (
	"node" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"owner" text NOT NULL,
	"registrar" text NOT NULL,
	"resolver" text,
	"locked" boolean DEFAULT false NOT NULL,
	"method" text NOT NULL,
	"allocated_ledger" integer NOT NULL,
	"allocated_at" timestamp with time zone,
	"tx_hash" text NOT NULL,
	"subname_policy" text DEFAULT 'enabled' NOT NULL,
	"chain_networks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"transfer_to" text,
	"transfer_expires" bigint,
	"issued_names" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "primary_names" (
	"address" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"ledger" integer NOT NULL,
	"tx_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "resolver_records" (
	"node" text PRIMARY KEY NOT NULL,
	"generation" bigint NOT NULL,
	"address" text,
	"payment_address" text,
	"payment_memo" text,
	"text_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"chain_networks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"display_for" text,
	"updated_ledger" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "streams" (
	"id" serial PRIMARY KEY NOT NULL,
	"next_ledger" integer NOT NULL,
	"cursor" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subnames" (
	"node" text PRIMARY KEY NOT NULL,
	"parent_node" text NOT NULL,
	"namespace" text NOT NULL,
	"parent_label" text NOT NULL,
	"child" text NOT NULL,
	"generation" bigint NOT NULL,
	"exists" boolean NOT NULL,
	"address" text NOT NULL,
	"ledger" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"namespace" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"active_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracked_contracts" (
	"contract_id" text PRIMARY KEY NOT NULL,
	"role" text NOT NULL,
	"namespace_node" text,
	"start_ledger" integer NOT NULL,
	"retired" boolean DEFAULT false NOT NULL,
	"stream_id" integer NOT NULL,
	"discovered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "claims_label_idx" ON "claims" USING btree ("label");--> statement-breakpoint
CREATE INDEX "events_contract_idx" ON "events" USING btree ("contract_id","id");--> statement-breakpoint
CREATE INDEX "events_subject_idx" ON "events" USING btree ("subject","id");--> statement-breakpoint
CREATE INDEX "events_namespace_idx" ON "events" USING btree ("namespace","id");--> statement-breakpoint
CREATE INDEX "name_history_node_idx" ON "name_history" USING btree ("node","id");--> statement-breakpoint
CREATE INDEX "names_holder_idx" ON "names" USING btree ("holder","issued_ledger");--> statement-breakpoint
CREATE UNIQUE INDEX "names_ns_label_idx" ON "names" USING btree ("namespace","label");--> statement-breakpoint
CREATE INDEX "names_label_pattern_idx" ON "names" USING btree ("label" text_pattern_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "namespaces_label_idx" ON "namespaces" USING btree ("label");--> statement-breakpoint
CREATE INDEX "subnames_parent_idx" ON "subnames" USING btree ("parent_node");