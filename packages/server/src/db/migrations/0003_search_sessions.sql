CREATE TABLE "auth_challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"account" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"account" text,
	"namespace" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "sessions_account_idx" ON "sessions" USING btree ("account");--> statement-breakpoint
CREATE INDEX "names_label_trgm_idx" ON "names" USING gin ("label" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "namespaces_label_trgm_idx" ON "namespaces" USING gin ("label" gin_trgm_ops);