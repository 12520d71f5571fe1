import { ValidationError as ElysiaValidationError } from "elysia";
import type { AppContext } from "../context";
import { DomainError, ValidationError } from "../services/errors";
import { recordFailure } from "../services/failure-reports";
import { RequestLimitError } from "./request-limits";

export type ErrorBody = { message: string; errorType?: string; errors?: Record<string, string> };

/**
 * What a schema may say about its failures: `error`, the field message; `errorKey`, the field it
 * is reported under when that is not its own path (a body that is one value names its field; a
 * list's items report on the list, as the form shows one message for the list); `nullError`, the
 * message when the value is null (a field that may be left out but not sent empty).
 */
type FieldSchema = { error?: unknown; errorKey?: unknown; nullError?: unknown };

/** Field messages from a schema validation failure, keyed by dotted path ("a.b"; "body" for the whole body). */
function fieldErrors(error: ElysiaValidationError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.all) {
    const path = "path" in issue && typeof issue.path === "string" ? issue.path : "";
    const schema = ("schema" in issue ? issue.schema : {}) as FieldSchema;
    const key = typeof schema.errorKey === "string" ? schema.errorKey : path.replace(/^\//, "").replaceAll("/", ".") || "body";
    if (errors[key]) continue;
    const nullMessage = "value" in issue && issue.value === null && typeof schema.nullError === "string" ? schema.nullError : undefined;
    errors[key] =
      nullMessage ?? (typeof schema.error === "string" ? schema.error : "message" in issue ? String(issue.message) : "is invalid");
  }
  return errors;
}

/**
 * Turns any error into the spec's answer: 400 binding errors with field messages, the status of
 * a domain error, and for anything unexpected a 500 with a failure report row.
 */
export function errorAnswer(ctx: AppContext, code: string | number, error: unknown): { status: number; body: ErrorBody } {
  // An answer that does not match its route's response schema is the server's fault, not the caller's.
  const badResponse = error instanceof ElysiaValidationError && error.type === "response";
  if (!badResponse && (error instanceof ElysiaValidationError || code === "VALIDATION")) {
    const errors = error instanceof ElysiaValidationError ? fieldErrors(error) : {};
    return { status: 400, body: { message: "binding error", errorType: "BINDING_ERROR", errors } };
  }
  if (error instanceof ValidationError) {
    return { status: 400, body: { message: error.message, errorType: error.errorType, errors: error.errors } };
  }
  if (error instanceof DomainError) {
    return { status: error.status, body: { message: error.message, errorType: error.errorType } };
  }
  if (code === "NOT_FOUND") return { status: 404, body: { message: "Not Found", errorType: "RESOURCE_NOT_FOUND" } };
  const limit = error instanceof RequestLimitError ? error : (error as { cause?: unknown })?.cause;
  if (limit instanceof RequestLimitError) {
    return { status: limit.status, body: { message: limit.message, errorType: "BAD_REQUEST" } };
  }
  if (code === "PARSE") return { status: 400, body: { message: "The request body could not be read", errorType: "BAD_REQUEST" } };
  if (code === "INVALID_COOKIE_SIGNATURE") return { status: 400, body: { message: "Bad Request" } };
  const status = badResponse ? undefined : (error as { status?: unknown })?.status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return { status, body: { message: (error as Error).message || "Bad Request" } };
  }
  // Recorded at once on SQLite; the answer need not wait for it (it never rejects).
  void recordFailure(ctx, error);
  console.error(error);
  return { status: 500, body: { message: "Internal Server Error", errorType: "INTERNAL_SERVER_ERROR" } };
}
