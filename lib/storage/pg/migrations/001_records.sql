-- The keyed records of every store on the port (lib/storage/records.ts): one row per record, its value the
-- record as JSON; lx_store_meta holds each store's small meta object.
CREATE TABLE IF NOT EXISTS lx_records (
  store text NOT NULL,
  key text NOT NULL,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (store, key)
);

CREATE TABLE IF NOT EXISTS lx_store_meta (
  store text PRIMARY KEY,
  value jsonb NOT NULL
);
