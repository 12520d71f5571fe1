import { loginUrl } from "./page-config";
import { beginLoading, confirmPopup, endLoading, showToast } from "./ui-store";

/** Generic texts per status (spec 8). */
const STATUS_MESSAGES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Field → message, for a 400 with field errors (dotted keys for nested fields). */
    readonly errors: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface RequestOptions {
  /** No loading bar and no toast (background refreshes). */
  silent?: boolean;
  /** Survive leaving the page (autosave flushing on navigation). */
  keepalive?: boolean;
  /** Handle a 401 as the caller wants instead of redirecting or asking. */
  onUnauthorized?: () => void;
  /** More request headers (an answer's Idempotency-Key). */
  headers?: Record<string, string>;
}

/** Field names as a person reads them; others are split from camelCase ("linkType" → "Link type"). */
const FIELD_NAMES: Record<string, string> = { newTitle: "Title", body: "" };

/** Field errors in words, e.g. "Title: size must be between 1 and 150", for a toast instead of "binding error". */
export function fieldErrorsInWords(errors: Record<string, string>): string {
  return Object.entries(errors)
    .map(([field, message]) => {
      const last = field.split(".").at(-1) ?? field;
      const name =
        FIELD_NAMES[last] ??
        last
          .replace(/([a-z])([A-Z])/g, "$1 $2")
          .toLowerCase()
          .replace(/^./, (c) => c.toUpperCase());
      return name ? `${name}: ${message}` : message;
    })
    .join("; ");
}

function genericMessage(status: number, statusText: string, body: string) {
  return STATUS_MESSAGES[status] ?? `Generic Error: ${status} ${statusText} ${body}`.trim();
}

/**
 * Calls the Engram API. On failure: 401 on a GET goes to sign-in; 401 otherwise asks before
 * leaving; a 400 with field errors is handed to the form (ApiError.errors); any other error
 * shows its message in a toast. Always throws ApiError on failure.
 */
export async function apiRequest<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const isForm = typeof FormData !== "undefined" && body instanceof FormData;
  const init: RequestInit = {
    method,
    credentials: "same-origin",
    keepalive: options.keepalive,
    headers: {
      ...(body === undefined || isForm
        ? { accept: "application/json" }
        : { "content-type": "application/json", accept: "application/json" }),
      ...options.headers,
    },
    body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
  };
  if (!options.silent) beginLoading();
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (networkError) {
    if (!options.silent) showToast("The server cannot be reached. Please check your connection.", "error");
    throw new ApiError(0, (networkError as Error).message);
  } finally {
    if (!options.silent) endLoading();
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  if (response.ok) return parsed as T;

  const errorBody = (parsed && typeof parsed === "object" ? parsed : {}) as { message?: string; errors?: Record<string, string> };
  const fieldErrors = errorBody.errors && Object.keys(errorBody.errors).length > 0 ? errorBody.errors : undefined;
  // A 400's message is "binding error": whoever shows it (a toast, a form) gets the field messages in words.
  const message =
    response.status === 400 && fieldErrors
      ? fieldErrorsInWords(fieldErrors)
      : errorBody.message || genericMessage(response.status, response.statusText, text);
  const error = new ApiError(response.status, message, errorBody.errors ?? {});
  if (response.status === 401) {
    if (options.onUnauthorized) options.onUnauthorized();
    else if (method === "GET") window.location.href = loginUrl();
    else if (await confirmPopup("You are logged out. Do you want to log in (and lose the current changes)?"))
      window.location.href = loginUrl();
    throw error;
  }
  if (!options.silent && !(response.status === 400 && fieldErrors)) showToast(message, "error");
  throw error;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>("GET", path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>("POST", path, body ?? {}, options),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>("PATCH", path, body ?? {}, options),
  delete: <T>(path: string, options?: RequestOptions) => apiRequest<T>("DELETE", path, undefined, options),
};
