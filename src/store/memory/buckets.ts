/**
 * The time buckets of the recall aggregates, as the triggers write them (SQLite migrations 0011
 * and 0040, PostgreSQL 0001): 15 minutes of next_recall_at or reviewed_at, in milliseconds.
 */
export const BUCKET_MS = 900_000;
