-- Generated. A name's history pages walk (node, event_id), the chain order, instead of (node, id), the order rows
-- were stored in: a back-fill stores older events after newer ones. Rebuilds the index under name_history's lock;
-- it replaces the old one, so an issued name still costs the same number of index entries.
DROP INDEX "name_history_node_idx";--> statement-breakpoint
CREATE INDEX "name_history_node_idx" ON "name_history" USING btree ("node","event_id");