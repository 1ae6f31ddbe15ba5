DROP INDEX "names_ns_label_idx";--> statement-breakpoint
DROP INDEX "names_ns_label_pattern_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "names_ns_label_pattern_idx" ON "names" USING btree ("namespace","label" text_pattern_ops);