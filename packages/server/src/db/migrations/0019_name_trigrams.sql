-- Generated (the table and its index), then the trigger that fills the table and the fill of the names already
-- issued, written by hand: drizzle-kit has no triggers. /v1/lookup walks a common substring's names in label
-- order from name_trigrams (api/routes/discovery/lookup.ts). Each issued name adds one row per distinct trigram of
-- its label past the first character (a match at the start is a prefix match, which lookup finds by its own
-- index): a trigram is written at its first occurrence there, so the rows need no DISTINCT, and in index order,
-- so a page's rows reach each index page once. The trigger is statement-level with a transition table: the
-- indexer's COPY of a page's names costs one set-based insert, not a function call per name. It is created
-- before the fill: it locks names against writers until this migration commits, so no name can be issued
-- between the fill and the trigger. On a large mirror the fill holds the indexer for a while (measured in
-- bench/HISTORY.md "scale": 10M names).
CREATE TABLE "name_trigrams" (
	"trigram" text NOT NULL,
	"label" text NOT NULL,
	"namespace" text NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION "name_trigrams_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "name_trigrams" ("trigram", "label", "namespace")
  SELECT substr(n."label", i, 3) AS "trigram", n."label", n."namespace"
  FROM "issued" n, generate_series(2, length(n."label") - 2) AS i
  WHERE strpos(substr(n."label", 2), substr(n."label", i, 3)) = i - 1
  ORDER BY 1, 2;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "names_trigrams" AFTER INSERT ON "names" REFERENCING NEW TABLE AS "issued"
  FOR EACH STATEMENT EXECUTE FUNCTION "name_trigrams_add"();
--> statement-breakpoint
INSERT INTO "name_trigrams" ("trigram", "label", "namespace")
SELECT substr(n."label", i, 3), n."label", n."namespace"
FROM "names" n, generate_series(2, length(n."label") - 2) AS i
WHERE strpos(substr(n."label", 2), substr(n."label", i, 3)) = i - 1;
--> statement-breakpoint
CREATE INDEX "name_trigrams_idx" ON "name_trigrams" USING btree ("trigram" text_pattern_ops,"label" text_pattern_ops,"namespace");
