import { t } from "elysia";
import { TypeRegistry } from "elysia/type-system";

/**
 * The one rule for ids in paths and bodies: a positive decimal integer without sign, leading
 * zeros, spaces, exponent or hex, of at most 15 digits (below 2^53, so exact as a JS number and
 * within SQLite's int64). Anything else is 400 (or 404 for a page), never another note.
 */
export const ID_DIGITS = "[1-9][0-9]{0,14}";
const ID_PATTERN = new RegExp(`^${ID_DIGITS}$`);
const ID_MESSAGE = "must be a positive whole number (an id)";

/** The id written in `text`, or undefined when it is not one. */
export function parseId(text: string): number | undefined {
  return ID_PATTERN.test(text) ? Number(text) : undefined;
}

/** A path parameter that is an id (decoded to a number). */
export const IdParam = t
  .Transform(t.String({ pattern: `^${ID_DIGITS}$`, error: ID_MESSAGE }))
  .Decode((text) => Number(text))
  .Encode((id) => String(id));

const BODY_ID_KIND = "EngramBodyId";
const MAX_ID = 10 ** 15 - 1;
if (!TypeRegistry.Has(BODY_ID_KIND)) {
  TypeRegistry.Set(BODY_ID_KIND, (_schema, value) => typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= MAX_ID);
}

/**
 * An id in a JSON body: a JSON number only. (Elysia turns strings into numbers for t.Integer,
 * which would let " 1" or "0x1" through; a kind of its own is never coerced.)
 */
export const BodyId = (error = ID_MESSAGE) =>
  t.Unsafe<number>({ [Symbol.for("TypeBox.Kind")]: BODY_ID_KIND, type: "integer", minimum: 1, maximum: MAX_ID, error });

/** The milliseconds a learner took to answer, for the recall log: a number (or its digits); the service checks the range. */
export const ThinkingTimeField = t.Optional(
  t.Union([t.Integer(), t.String({ maxLength: 12 }), t.Null()], { error: "must be a whole number of milliseconds" }),
);
