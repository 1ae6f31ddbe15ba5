-- Generated (the table and its index), then the trigger that fills the table and the fill of the names already
-- issued, written by hand: drizzle-kit has no triggers. /v1/lookup walks a common substring's names in label
-- order from name_trigrams (api/routes/discovery/lookup.ts); each issued name adds one row per distinct trigram of
-- its label (a label's repeated trigram once: DISTINCT per label, not a sort of the whole batch). The trigger is statement-level with a transition table, so the indexer's COPY of a page's names
-- costs one set-based insert, not a function call per name. The trigger is created before the fill: it locks
-- names against writers until this migration commits, so no name can be issued between the fill and the trigger.
-- On a large mirror the fill takes a while (10M names: ~70M rows) with the indexer held.
CREATE TABLE "name_trigrams" (
	"trigram" text NOT NULL,
	"label" text NOT NULL,
	"namespace" text NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION "name_trigrams_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "name_trigrams" ("trigram", "label", "namespace")
  SELECT t."trigram", n."label", n."namespace"
  FROM "issued" n,
    LATERAL (SELECT DISTINCT substr(n."label", i, 3) AS "trigram" FROM generate_series(1, length(n."label") - 2) AS i) t
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "names_trigrams" AFTER INSERT ON "names" REFERENCING NEW TABLE AS "issued"
  FOR EACH STATEMENT EXECUTE FUNCTION "name_trigrams_add"();
--> statement-breakpoint
INSERT INTO "name_trigrams" ("trigram", "label", "namespace")
SELECT t."trigram", n."label", n."namespace"
FROM "names" n,
  LATERAL (SELECT DISTINCT substr(n."label", i, 3) AS "trigram" FROM generate_series(1, length(n."label") - 2) AS i) t;
--> statement-breakpoint
CREATE UNIQUE INDEX "name_trigrams_idx" ON "name_trigrams" USING btree ("trigram" text_pattern_ops,"label" text_pattern_ops,"namespace");
