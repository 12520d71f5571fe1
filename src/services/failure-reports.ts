import type { AppContext } from "../context";
import { failureReports } from "../db/schema";

/** Records an unexpected error so admins see it under Failure Reports. Never throws. */
export function recordFailure(ctx: AppContext, error: unknown) {
  const err = error instanceof Error ? error : new Error(String(error));
  try {
    return ctx.db
      .insert(failureReports)
      .values({
        errorName: err.name || "Error",
        errorDetail: `${err.message}\n${err.stack ?? ""}`.trim(),
        createDatetime: ctx.clock.now(),
      })
      .returning()
      .get();
  } catch (writeError) {
    console.error("Could not record a failure report:", writeError);
    return undefined;
  }
}
