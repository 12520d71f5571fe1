/**
 * Where the app's database is, as a worker process that opens its own connection needs to know
 * it: the SQLite file, or the PostgreSQL URL. Plain data, so it crosses to a worker as it is.
 */
export type DatabasePlace = { sqliteFile: string } | { postgresUrl: string };

/** The SQLite file of a place, for code that runs on SQLite only so far: on PostgreSQL, an error saying who needs the file. */
export function sqliteFileOf(place: DatabasePlace, who: string): string {
  if ("sqliteFile" in place) return place.sqliteFile;
  throw new Error(`${who} opens the SQLite file and does not run on PostgreSQL yet`);
}
