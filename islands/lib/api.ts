import { treaty } from "@elysiajs/eden";
import type { App } from "../../src/api/index";
import { loginUrl } from "./page-config";
import { beginLoading, confirmPopup, endLoading, showToast } from "./ui-store";

/** Generic texts per status. */
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
  /** Handle a 401 as the caller wants instead of redirecting or asking. */
  onUnauthorized?: () => void;
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

function genericMessage(status: number, statusText: string, body: unknown) {
  return STATUS_MESSAGES[status] ?? `Generic Error: ${status} ${statusText} ${typeof body === "string" ? body : ""}`.trim();
}

/** The method each answer was asked with: a 401 on a read redirects, on a write it asks first. */
const methods = new WeakMap<Response, string>();
const sameOriginFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
  const response = await fetch(input, { credentials: "same-origin", ...init, headers: { accept: "application/json", ...init?.headers } });
  methods.set(response, init?.method ?? "GET");
  return response;
}) as typeof fetch;

/**
 * The Engram API as typed by the server's routes (Eden Treaty over the app's type): the path, the
 * input and the answer of every call come from the route, so a server change that breaks an
 * island fails the type check. Use it through `call`, which adds the app's behaviour.
 */
export const api = treaty<App>(typeof location === "undefined" ? "http://localhost" : location.origin, {
  fetcher: sameOriginFetch,
  // Dates stay ISO strings, as the presenters' types say.
  parseDate: false,
}).api;

/** What a typed call answers: Eden Treaty's result. */
interface TreatyResult<T> {
  data: T;
  error: { status: unknown; value: unknown } | null;
  response: Response | undefined;
  status: number;
}

/** The success answer's type of a typed call. */
export type Answer<R> =
  R extends Promise<{ data: infer T; error: null }> ? T : R extends Promise<{ data: infer T }> ? NonNullable<T> : never;

/**
 * Runs a typed call with the app's behaviour and answers its data. On failure: 401 on a GET goes
 * to sign-in; 401 otherwise asks before leaving; a 400 with field errors is handed to the form
 * (ApiError.errors); any other error shows its message in a toast. Always throws ApiError on
 * failure. An empty answer is undefined.
 */
export async function call<R extends Promise<TreatyResult<unknown>>>(request: R, options: RequestOptions = {}): Promise<Answer<R>> {
  if (!options.silent) beginLoading();
  let result: TreatyResult<unknown>;
  try {
    result = await request;
  } finally {
    if (!options.silent) endLoading();
  }
  const { response } = result;
  if (!response) {
    if (!options.silent) showToast("The server cannot be reached. Please check your connection.", "error");
    throw new ApiError(0, String((result.error?.value as Error | undefined)?.message ?? "Network error"));
  }
  if (!result.error) return (result.data === "" ? undefined : result.data) as Answer<R>;

  const body = result.error.value;
  const errorBody = (body && typeof body === "object" ? body : {}) as { message?: string; errors?: Record<string, string> };
  const fieldErrors = errorBody.errors && Object.keys(errorBody.errors).length > 0 ? errorBody.errors : undefined;
  // A 400's message is "binding error": whoever shows it (a toast, a form) gets the field messages in words.
  const message =
    response.status === 400 && fieldErrors
      ? fieldErrorsInWords(fieldErrors)
      : errorBody.message || genericMessage(response.status, response.statusText, body);
  const error = new ApiError(response.status, message, errorBody.errors ?? {});
  if (response.status === 401) {
    if (options.onUnauthorized) options.onUnauthorized();
    else if ((methods.get(response) ?? "GET") === "GET") window.location.href = loginUrl();
    else if (await confirmPopup("You are logged out. Do you want to log in (and lose the current changes)?"))
      window.location.href = loginUrl();
    throw error;
  }
  if (!options.silent && !(response.status === 400 && fieldErrors)) showToast(message, "error");
  throw error;
}

/** Survive leaving the page (autosave flushing on navigation): pass as a typed call's options. */
export const keepalive = { fetch: { keepalive: true } } as const;

/**
 * Eden Treaty reads a path segment named "subscribe" as a WebSocket subscription, so the one route
 * ending in /subscribe is typed from the app's route table here (the call itself goes out as usual).
 */
type SubscribeRoute = App["~Routes"]["api"]["subscriptions"]["notebooks"][":notebook"]["subscribe"]["post"];
type SubscribeCall = { subscribe: { post(body: SubscribeRoute["body"]): Promise<TreatyResult<SubscribeRoute["response"][200]>> } };
export const subscribeToNotebook = (notebookId: number, body: SubscribeRoute["body"]) =>
  (api.subscriptions.notebooks({ notebook: notebookId }) as unknown as SubscribeCall).subscribe.post(body);
