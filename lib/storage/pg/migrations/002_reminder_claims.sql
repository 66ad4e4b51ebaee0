-- Claims of due reminders (lib/storage/pg/claims.ts, lib/reminders/README.md "Several instances"): which
-- instance is sending which occurrence, until when its lease holds, and whether it has marked the occurrence
-- as being sent (the at-most-once mark). A claim goes with its record (ON DELETE CASCADE: a cancelled
-- reminder leaves no claim behind).
CREATE TABLE IF NOT EXISTS lx_reminder_claims (
  store text NOT NULL,
  key text NOT NULL,
  -- the record's nextAt the claim is for (ms); a claim for another occurrence is stale
  occurrence bigint NOT NULL,
  -- the claiming instance (a random id per service object)
  claimer text NOT NULL,
  -- until when (ms, the claimer's clock) no other instance may take the claim over
  lease_until bigint NOT NULL,
  -- set before the send: a claim whose lease lapsed with this set is settled, never sent again
  sending boolean NOT NULL DEFAULT false,
  claimed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (store, key),
  FOREIGN KEY (store, key) REFERENCES lx_records (store, key) ON DELETE CASCADE
);

-- The claim query: the due reminders in order of their time.
CREATE INDEX IF NOT EXISTS lx_records_reminders_due ON lx_records (((value->>'nextAt')::bigint)) WHERE store = 'reminders';
