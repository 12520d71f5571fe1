import { scalarValue, splitDetails } from "../vaults/markdown-file";

/**
 * A cloze note: its title is a question with blanks ("Un poco [of] agua") and its
 * `cloze_answer` property says what fills them ("de"); several blanks are "a / b", and either
 * answer is accepted as for a title "a / b". An Anki cloze import writes such notes; anyone may.
 */
export const CLOZE_ANSWER_PROPERTY = "cloze_answer";

/** The note's cloze answer, when its details' properties have one. */
export function clozeAnswerOf(details: string | null): string | undefined {
  const { entries } = splitDetails(details ?? "");
  return scalarValue(entries.find((entry) => entry.key === CLOZE_ANSWER_PROPERTY))?.trim() || undefined;
}
