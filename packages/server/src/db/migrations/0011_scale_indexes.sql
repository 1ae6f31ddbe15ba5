DROP INDEX "names_label_pattern_idx";--> statement-breakpoint
CREATE INDEX "names_label_pattern_idx" ON "names" USING btree ("label" text_pattern_ops,"namespace","active","expires_at");