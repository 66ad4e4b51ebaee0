-- Scheduled tasks (lib/tasks/README.md) are claimed like reminders (lib/storage/pg/claims.ts, the table of
-- migration 002, keyed by store): the claim query's index over the tasks' next times. A paused or finished
-- task has no nextAt: NULL, never due.
CREATE INDEX IF NOT EXISTS lx_records_tasks_due ON lx_records (((value->>'nextAt')::bigint)) WHERE store = 'tasks';
