/**
 * The few typed errors services raise. src/api/errors.ts maps them to HTTP statuses and the
 * spec's error bodies in one place; anything else becomes a 500 with a failure report.
 */
export class DomainError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errorType?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 401: nobody is signed in (or the profile is missing). */
export class UnauthorizedError extends DomainError {
  constructor(message = "Unauthorized") {
    super(message, 401, "UNAUTHORIZED");
  }
}

/** 403: signed in, but not allowed to act on this resource. */
export class ForbiddenError extends DomainError {
  constructor(message = "Forbidden") {
    super(message, 403, "FORBIDDEN");
  }
}

/** 404: the resource does not exist (or is not visible at all). */
export class NotFoundError extends DomainError {
  constructor(what = "Resource") {
    super(`${what} not found`, 404, "RESOURCE_NOT_FOUND");
  }
}

/** 400 with field messages: `{ errors: { field: message } }`, dotted keys for nested fields. */
export class ValidationError extends DomainError {
  constructor(readonly errors: Record<string, string>) {
    super("binding error", 400, "BINDING_ERROR");
  }
}

/** 400 without a field: a request that cannot be carried out as asked. */
export class BadRequestError extends DomainError {
  constructor(message: string) {
    super(message, 400, "BAD_REQUEST");
  }
}

/** 409: the request cannot go ahead while other work on the same thing runs. */
export class ConflictError extends DomainError {
  constructor(message: string) {
    super(message, 409, "CONFLICT");
  }
}

/** 429: too many attempts in a short time. */
export class TooManyRequestsError extends DomainError {
  constructor(message: string) {
    super(message, 429, "TOO_MANY_REQUESTS");
  }
}

/** 503: a service Engram relies on is missing or down (AI, Wikidata). */
export class ServiceUnavailableError extends DomainError {
  constructor(message: string) {
    super(message, 503, "SERVICE_UNAVAILABLE");
  }
}

export function orNotFound<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new NotFoundError(what);
  return value;
}
