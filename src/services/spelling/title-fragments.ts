/**
 * Title fragments: the parts of a note title a spelling answer may be,
 * and the parts the cloze hides. "this / that" has the fragments "this" and "that"; "cat (animal)"
 * has "cat" and the subtitle fragment "animal"; "~cat" is the suffix fragment "cat".
 */
export interface TitleFragment {
  /** The fragment without its leading `~` and surrounding whitespace. */
  stem: string;
  /** Written with a leading `~`, `〜` or `～`: matched only at the end of a longer word. */
  suffix: boolean;
}

/** An opening bracket, non-bracket characters, a closing bracket at the very end of the title. */
const SUBTITLE = /^(.+?)(\p{Ps}([^\p{Ps}\p{Pe}]+)\p{Pe})?$/su;
/** `/` or `／`, but not a slash next to another slash (`//` is not a separator). */
const SEPARATOR = /(?<![/／])[/／](?![/／])/u;
const SUFFIX_MARK = /^[~〜～]/u;

/** Lengths count code points, so a character outside the BMP is one character. */
export const lengthOf = (text: string) => Array.from(text).length;

function fragmentsOf(part: string | undefined): TitleFragment[] {
  if (!part) return [];
  return part.split(SEPARATOR).map((piece) => {
    const trimmed = piece.trim();
    const suffix = SUFFIX_MARK.test(trimmed);
    return { stem: suffix ? trimmed.slice(1) : trimmed, suffix };
  });
}

/** Longest stem first; among equal lengths the later fragment first (a stable sort, reversed). */
function longestFirst(fragments: TitleFragment[]): TitleFragment[] {
  return fragments
    .map((fragment, index) => ({ fragment, index }))
    .sort((a, b) => lengthOf(b.fragment.stem) - lengthOf(a.fragment.stem) || b.index - a.index)
    .map(({ fragment }) => fragment);
}

export interface NoteTitleParts {
  /** Fragments of the title without its trailing bracketed subtitle, longest first. */
  titles: TitleFragment[];
  /** Fragments of the trailing bracketed subtitle, longest first. */
  subtitles: TitleFragment[];
}

export function titleParts(title: string): NoteTitleParts {
  const match = SUBTITLE.exec(title);
  return { titles: longestFirst(fragmentsOf(match?.[1])), subtitles: longestFirst(fragmentsOf(match?.[3])) };
}

/**
 * Whether a spelling answer names the note: the whole trimmed title (compared with the raw
 * answer), or any main fragment (compared with the trimmed answer), ignoring case.
 */
export function matchesTitle(title: string, answer: string | null | undefined): boolean {
  if (answer === null || answer === undefined) return false;
  if (sameIgnoringCase(title.trim(), answer)) return true;
  const trimmed = answer.trim();
  return titleParts(title).titles.some((fragment) => sameIgnoringCase(fragment.stem, trimmed));
}

/** Character by character, like Java's equalsIgnoreCase (so "ß" is not "SS"). */
function sameIgnoringCase(a: string, b: string): boolean {
  const x = Array.from(a);
  const y = Array.from(b);
  return (
    x.length === y.length &&
    x.every((c, i) => {
      const d = y[i]!;
      return c === d || c.toUpperCase() === d.toUpperCase() || c.toLowerCase() === d.toLowerCase();
    })
  );
}
