/**
 * Where the app's database is, as a worker process that opens its own connection needs to know
 * it: the SQLite file, or the PostgreSQL URL. Plain data, so it crosses to a worker as it is.
 */
export type DatabasePlace = { sqliteFile: string } | { postgresUrl: string };
