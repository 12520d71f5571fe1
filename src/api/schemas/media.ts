import { type TSchema, t } from "elysia";

/**
 * Answers that are not JSON: bytes (an image, a zip), a stream of server-sent events, or nothing.
 * Such a route returns a `Response`, which Elysia sends as it is without checking it, so these
 * schemas only describe the answer: its media type (JSON Schema's `contentMediaType`, under which
 * src/api/openapi.ts files it in the OpenAPI document) and, for an event stream, its events.
 */

/** Where an event stream's schema keeps the schema of one event, for the OpenAPI document. */
export const EVENTS_KEY = "x-engram-events";

/** Bytes of the given media type ("image/*" when it varies with the file). */
export const binaryAnswer = (mediaType: string, description: string) =>
  t.String({ format: "binary", contentMediaType: mediaType, description });

/** A stream of server-sent events, each described by `event`. */
export const eventStreamAnswer = (event: TSchema, description: string) =>
  t.String({ contentMediaType: "text/event-stream", description, [EVENTS_KEY]: event });

/** A 204 answer: no body at all. */
export const NoContent = t.Void({ description: "No content" });
