-- The knowledge base's vectors shared by every instance (lib/knowledge/README.md, "Several instances").
-- lx_knowledge_claims: which instance embeds a document (at which passages and model), so it is embedded
-- once; a claim lapses after a few minutes (its instance may have died).
CREATE TABLE IF NOT EXISTS lx_knowledge_claims (
  doc_id text PRIMARY KEY,
  fingerprint text NOT NULL,
  model_key text NOT NULL,
  holder text NOT NULL,
  claimed_at timestamptz NOT NULL DEFAULT now()
);

-- With pgvector available on the server: the extension and a table of passage vectors (the HNSW indexes,
-- one per dimension count, are made by lib/knowledge/vectors/pgvector.ts once the dimension is known).
-- Without it, or without the right to create it, nothing more: the vectors stay records searched by the
-- embedded index, and this migration succeeds all the same.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS vector;
    EXCEPTION WHEN insufficient_privilege OR feature_not_supported OR undefined_file THEN
      RAISE NOTICE 'pgvector is available but could not be created here (%): knowledge vectors stay in the embedded index', SQLERRM;
    END;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN
    EXECUTE 'CREATE TABLE IF NOT EXISTS lx_knowledge_vectors (
      doc_id text NOT NULL,
      n int NOT NULL,
      model_key text NOT NULL,
      preset_id text NOT NULL,
      dims int NOT NULL,
      embedding vector NOT NULL,
      PRIMARY KEY (doc_id, n)
    )';
  END IF;
END
$$;
