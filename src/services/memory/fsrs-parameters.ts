/** "Optimize my parameters": fits FSRS weights to the user's own review log. */
import type { AppContext } from "../../context";
import { ValidationError } from "../errors";
import { DEFAULT_WEIGHTS, type ReviewOutcome } from "../scheduling/fsrs";
import { type LoggedReview, logLoss, MIN_REVIEWS_TO_OPTIMIZE, optimize } from "../scheduling/fsrs-optimizer";
import { recountRetrievability } from "../stats/stats";
import type { CurrentUser } from "../users";

const DAY_MS = 86_400_000;
/** The newest log rows the fit reads: enough for a good fit, small enough to answer in seconds. */
const MAX_LOG_ROWS = 12_000;

/** The user's review histories, one per tracker, from the newest log rows. */
export async function reviewHistories(ctx: AppContext, current: CurrentUser): Promise<LoggedReview[][]> {
  const rows = (await ctx.stores.memory.reviewHistoryRows(current.user.id, MAX_LOG_ROWS)).map((row) => ({
    ...row,
    at: row.at.getTime(),
  }));
  const histories: LoggedReview[][] = [];
  let [tracker, previous] = [-1, 0];
  for (const row of rows) {
    const outcome: ReviewOutcome | "assimilation" | null =
      row.kind === "assimilation"
        ? "assimilation"
        : row.outcome === "success" || row.outcome === "failure"
          ? row.outcome
          : Number(row.outcome) > 0
            ? "+5"
            : Number(row.outcome) < 0
              ? "-5"
              : null;
    if (outcome === null) continue;
    if (row.trackerId !== tracker) {
      histories.push([]);
      [tracker, previous] = [row.trackerId, row.at];
    }
    histories.at(-1)!.push({ elapsedDays: Math.max(0, (row.at - previous) / DAY_MS), outcome });
    previous = row.at;
  }
  return histories;
}

export async function optimizeFsrsParameters(ctx: AppContext, current: CurrentUser) {
  const histories = await reviewHistories(ctx, current);
  const recalls = logLoss(DEFAULT_WEIGHTS, histories).count;
  if (recalls < MIN_REVIEWS_TO_OPTIMIZE) {
    throw new ValidationError({ reviews: `needs at least ${MIN_REVIEWS_TO_OPTIMIZE} logged reviews; you have ${recalls} so far` });
  }
  const result = optimize(histories);
  const fsrsWeights = result.weights ? JSON.stringify(result.weights) : null;
  await ctx.stores.users.updateSettings(current.user.id, { fsrsWeights });
  // The statistics' retrievability spread depends on the weights (and recounts itself if this is lost).
  await recountRetrievability(ctx, { ...current.user, fsrsWeights });
  return {
    reviews: result.reviews,
    heldOutReviews: result.heldOutReviews,
    logLossBefore: result.logLossBefore,
    logLossAfter: result.logLossAfter,
    kept: result.kept,
  };
}
