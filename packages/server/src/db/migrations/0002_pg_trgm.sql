-- Trigram matching for /v1/lookup substring search (PostgreSQL contrib; PGlite loads it as an extension).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
