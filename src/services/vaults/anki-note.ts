/**
 * One Anki note as an Engram note's text:
 * - the title is the first field as text; longer than a title may be (150 characters), it is
 *   shortened at a word and ends with "…", and the whole field goes into the details as well;
 * - a cloze note (its note type is Cloze) is titled by its card's question: the deletions of the
 *   card's number blanked ("[...]", or "[hint]" as Anki shows a hint); its details hold the full
 *   text with every answer in place, and its `cloze_answer` property what fills the blanks, which
 *   recall's spelling question asks for (see spelling-service.ts);
 * - the other fields follow as Markdown, each under its name when there are several;
 * - the note type, the cloze answer and the tags are properties (front matter).
 */
import { MAX_TITLE_LENGTH } from "../notes/validation";
import { CLOZE_ANSWER_PROPERTY } from "../spelling/cloze-answer";
import { stripControlCharacters } from "../text-input";
import { clozeAnswer, clozeDeletions, clozeQuestion, hasCloze } from "./anki-cloze";
import { fieldToMarkdown, fieldToText } from "./anki-html";
import { yamlString } from "./markdown-file";

export interface NoteType {
  name: string;
  fields: string[];
  cloze: boolean;
}

export interface AnkiNoteText {
  title: string;
  details: string;
  /** What fills the blanks of a cloze note's title (several deletions: "a / b"). */
  clozeAnswer?: string;
}

const ELLIPSIS = "…";

/** A title of at most MAX_TITLE_LENGTH characters: cut at the last space that fits, ended by "…". */
export function shortenedTitle(text: string): string {
  if (text.length <= MAX_TITLE_LENGTH) return text;
  const room = MAX_TITLE_LENGTH - ELLIPSIS.length;
  let cut = text.slice(0, room);
  // Never half a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  const space = cut.search(/\s\S*$/);
  if (space > room / 2) cut = cut.slice(0, space);
  return cut.trimEnd() + ELLIPSIS;
}

const cleanText = (text: string) => stripControlCharacters(text).replace(/\s+/g, " ").trim();

/** The note's title, details and cloze answer; `cardOrd` is its first card's template (cloze: its number - 1). */
export function ankiNoteText(type: NoteType | undefined, values: string[], tags: string[], cardOrd = 0): AnkiNoteText {
  const names = type?.fields ?? [];
  const clozeField = type?.cloze ? Math.max(0, values.findIndex(hasCloze)) : -1;
  const titleField = Math.max(clozeField, 0);
  const titleHtml = values[titleField] ?? "";
  const cloze = clozeField >= 0 && hasCloze(titleHtml);
  const deletions = cloze
    ? clozeDeletions(titleHtml, cardOrd + 1)
        .map((html) => cleanText(fieldToText(html)))
        .filter(Boolean)
    : [];
  const fullTitle = cleanText(fieldToText(cloze ? clozeQuestion(titleHtml, cardOrd + 1) : titleHtml));
  const title = shortenedTitle(fullTitle) || "Untitled";

  const sections: { name: string; text: string }[] = [];
  // The whole first field when the title cannot hold it, or when it is a cloze question.
  if (cloze || title !== fullTitle) {
    const text = fieldToMarkdown(cloze ? clozeAnswer(titleHtml) : titleHtml);
    if (text) sections.push({ name: names[titleField] ?? `Field ${titleField + 1}`, text });
  }
  values.forEach((value, i) => {
    if (i === titleField) return;
    const text = fieldToMarkdown(type?.cloze ? clozeAnswer(value) : value);
    if (text) sections.push({ name: names[i] ?? `Field ${i + 1}`, text });
  });
  const body = sections.length === 1 ? sections[0]!.text : sections.map((section) => `**${section.name}**\n\n${section.text}`).join("\n\n");

  const answer = deletions.length ? deletions.join(" / ") : undefined;
  const frontMatter = [`anki_note_type: ${yamlString(type?.name ?? "Note")}`];
  if (answer) frontMatter.push(`${CLOZE_ANSWER_PROPERTY}: ${yamlString(answer)}`);
  if (tags.length) frontMatter.push("tags:", ...tags.map((tag) => `  - ${yamlString(tag)}`));
  const details = `---\n${frontMatter.join("\n")}\n---\n${body ? `\n${body}` : ""}`;
  return { title, details, ...(answer ? { clozeAnswer: answer } : {}) };
}
