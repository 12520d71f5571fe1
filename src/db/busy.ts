/** SQLite's "database is locked" by another connection (SQLITE_BUSY and its extended codes). */
export function isBusy(error: unknown): boolean {
  return String((error as { code?: unknown })?.code ?? "").startsWith("SQLITE_BUSY");
}

/**
 * Runs `step` again while SQLite answers SQLITE_BUSY, for up to `waitMs`, pausing `pauseMs` between
 * tries. It blocks the thread while it waits: for opening a file, and for the units a caller
 * needs answered synchronously.
 */
export function whileBusy<T>(step: () => T, waitMs: number, pauseMs = 5): T {
  const giveUpAt = Date.now() + waitMs;
  for (;;) {
    try {
      return step();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= giveUpAt) throw error;
    }
    Bun.sleepSync(pauseMs);
  }
}
