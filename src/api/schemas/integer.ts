import { type IntegerOptions, Type } from "@sinclair/typebox";

/**
 * A whole number in an answer. Elysia's t.Integer also reads digits from a string (what params and
 * queries need) through a transform, and Elysia encodes an answer whose schema has a transform value
 * by value before it checks it: for a note's realm with 40 children that took about a third of the
 * request's time. Answers never arrive as strings, so their integers are TypeBox's plain one, and
 * the check is a compiled function of a few microseconds.
 */
export const Integer = (options?: IntegerOptions) => Type.Integer(options);
