-- Trigram indexes back the lists' ILIKE '%term%' search (DESIGN §4); drizzle-kit does not emit this.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
