import type { AppContext } from "../context";
import type { FailureReportRow } from "../store/failure-reports/failure-reports-store";
import { NotFoundError, ValidationError } from "./errors";
import { authorizeAdmin } from "./policies";
import type { CurrentUser } from "./users";

const REDACTED = "[redacted]";

/**
 * Secrets never reach a failure report: the configured AI key wherever it appears, then anything
 * shaped like a key, a bearer token, a session cookie, a password or an authorization header.
 */
export function scrubSecrets(text: string, knownSecrets: (string | undefined)[] = []): string {
  let scrubbed = text;
  for (const secret of knownSecrets) if (secret && secret.length >= 6) scrubbed = scrubbed.split(secret).join(REDACTED);
  return scrubbed
    .replace(/\bsk-[A-Za-z0-9_-]{8,}/g, REDACTED)
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/gi, `$1 ${REDACTED}`)
    .replace(/\b(engram_session|session|token|sessionid|sid)=([^;\s"',&]+)/gi, `$1=${REDACTED}`)
    .replace(/\b(authorization|cookie|set-cookie|x-api-key)(["']?\s*[:=]\s*["']?)([^\n"']+)/gi, `$1$2${REDACTED}`)
    .replace(/\b(api[_-]?key|apikey|secret|password|passwd|token)(["']?\s*[:=]\s*["']?)([^\s"',;&}]+)/gi, `$1$2${REDACTED}`);
}

/**
 * Records an unexpected error so admins see it under Failure Reports, secrets scrubbed. Never
 * throws or rejects: callers that answer the request at once need not wait for it.
 */
export async function recordFailure(ctx: AppContext, error: unknown): Promise<FailureReportRow | undefined> {
  const err = error instanceof Error ? error : new Error(String(error));
  try {
    const secrets = [ctx.config.openAiApiKey];
    return await ctx.stores.failureReports.record(
      {
        errorName: scrubSecrets(err.name || "Error", secrets),
        errorDetail: scrubSecrets(`${err.message}\n${err.stack ?? ""}`.trim(), secrets),
      },
      ctx.clock.now(),
    );
  } catch (writeError) {
    console.error("Could not record a failure report:", writeError);
    return undefined;
  }
}

/** FailureReport. */
export interface FailureReportJson {
  id: number;
  errorName: string;
  errorDetail: string;
  createDatetime: string;
}

/** FailureReportForView: the report and, when ENGRAM_ISSUE_TRACKER_URL is set, a prefilled new-issue link. */
export interface FailureReportForViewJson {
  failureReport: FailureReportJson;
  githubIssueUrl?: string;
}

const present = (row: FailureReportRow): FailureReportJson => ({
  id: row.id,
  errorName: row.errorName,
  errorDetail: row.errorDetail,
  createDatetime: row.createDatetime.toISOString(),
});

/** The tracker's new-issue page with the title and body filled in (GitHub and GitLab read these parameters). */
function issueLink(ctx: AppContext, report: FailureReportJson): string | undefined {
  const tracker = ctx.config.issueTrackerUrl;
  if (!tracker) return undefined;
  const url = new URL(tracker);
  url.searchParams.set("title", `${report.errorName} (failure report ${report.id})`);
  url.searchParams.set("body", `Reported at ${report.createDatetime}\n\n\`\`\`\n${report.errorDetail.slice(0, 6000)}\n\`\`\``);
  return url.toString();
}

/** Admins: the reports, newest first (the list carries no details). */
export async function listFailureReports(ctx: AppContext, current: CurrentUser | undefined): Promise<FailureReportJson[]> {
  authorizeAdmin(current, "Only an administrator can see failure reports");
  return (await ctx.stores.failureReports.list()).map((row) => ({ ...present(row), errorDetail: "" }));
}

export async function showFailureReport(ctx: AppContext, current: CurrentUser | undefined, id: number): Promise<FailureReportForViewJson> {
  authorizeAdmin(current, "Only an administrator can see failure reports");
  const row = await ctx.stores.failureReports.byId(id);
  if (!row) throw new NotFoundError("Failure report");
  const report = present(row);
  const githubIssueUrl = issueLink(ctx, report);
  return { failureReport: report, ...(githubIssueUrl ? { githubIssueUrl } : {}) };
}

/** DELETE /failure-reports/delete with the ids; answers how many went. */
export async function deleteFailureReports(ctx: AppContext, current: CurrentUser | undefined, ids: unknown): Promise<{ deleted: number }> {
  authorizeAdmin(current, "Only an administrator can delete failure reports");
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > 10_000 || !ids.every((id) => Number.isSafeInteger(id) && id > 0)) {
    throw new ValidationError({ ids: "must be a list of failure report ids" });
  }
  return { deleted: await ctx.stores.failureReports.remove(ids as number[]) };
}
