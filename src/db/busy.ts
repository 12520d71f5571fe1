/** SQLite's "database is locked" by another connection (SQLITE_BUSY and its extended codes). */
export function isBusy(error: unknown): boolean {
  return String((error as { code?: unknown })?.code ?? "").startsWith("SQLITE_BUSY");
}
