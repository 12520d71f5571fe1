import { Lexer, type Tokens } from "marked";
import { readsAsMath, safeUrl } from "../../lib/markdown";
import { FORMATS, inlineRuns, LEX_OPTIONS, type Run, type RunFormat } from "./delta";
import { escapeMarkdownText } from "./escaping";

/**
 * Writing one line's runs as inline Markdown: formats nested as elements ("**", "*", "~~", "`",
 * links, bare addresses), each result read back with marked and, where it reads differently,
 * written again giving up formats step by step. Plain text is escaped by escaping.ts.
 */

const DELIMITERS = { bold: "**", italic: "*", strike: "~~" } as const;

/**
 * One line's text: whitespace collapsed and trimmed (as the page shows it), then written and
 * read back with marked, in steps that give up less and less: a format that cannot be written
 * where it is (see canDelimit) is left out; if the line still reads back differently
 * (delimiters of neighbouring formats running together, a bare address running into the next
 * text), bold, italic and strikethrough go, then links are written in brackets, and at the last
 * every punctuation character is escaped. The text is never lost.
 */
export function inlineMarkdown(lineRuns: Run[], inHeading: boolean): string {
  // Typing changes one line: the others are written as before (reading back is what costs).
  const key = (inHeading ? "h" : "p") + JSON.stringify(lineRuns);
  let markdown = writtenLines.get(key);
  if (markdown === undefined) {
    if (writtenLines.size > 10_000) writtenLines.clear();
    markdown = writeInline(lineRuns, inHeading);
    // Dollars typed in the rich editor are text: where two would read as math ($…$), escaped.
    if (readsAsMath(markdown)) markdown = escapeDollars(markdown);
    writtenLines.set(key, markdown);
  }
  return markdown;
}
const writtenLines = new Map<string, string>();

/** Every `$` outside code spans and not escaped yet, as `\$`. */
const escapeDollars = (markdown: string) => markdown.replace(/(`+)[\s\S]*?\1|\\[\s\S]|\$/g, (match) => (match === "$" ? "\\$" : match));

function writeInline(lineRuns: Run[], inHeading: boolean): string {
  let runs = withAddressesAsLinks(normalizedRuns(lineRuns)).map((run, id) => ({ ...run, id }));
  const write = (candidate: Run[], bareLinks: boolean) => {
    const failures: { id: number; format: RunFormat }[] = [];
    const context = { inHeading, inLinkText: false, bareLinks, before: undefined, after: undefined, failures };
    return { markdown: nested(candidate, FORMATS, context), failures };
  };
  for (;;) {
    const { markdown, failures } = write(runs, true);
    if (failures.length === 0) {
      if (readsBack(markdown, runs)) return markdown;
      break;
    }
    // Neighbours left with the same formats merge again, so the line is written as the runs it
    // will be read back as would be (else "*" and "a", once parted by a dropped "~~", stay apart).
    runs = normalizedRuns(
      runs.map((run) => {
        const dropped = failures.filter((failure) => failure.id === run.id);
        return dropped.length ? { ...run, ...Object.fromEntries(dropped.map((failure) => [failure.format, undefined])) } : run;
      }),
    ).map((run, id) => ({ ...run, id }));
  }
  const withoutEmphasis = runs.map((run) => ({ ...run, bold: undefined, italic: undefined, strike: undefined }));
  for (const bareLinks of [true, false]) {
    const { markdown } = write(withoutEmphasis, bareLinks);
    if (readsBack(markdown, withoutEmphasis)) return markdown;
  }
  // Any ASCII punctuation may be escaped, and escaped it starts nothing (not even a bare link).
  return runs
    .map((run) => run.text)
    .join("")
    .replace(/[!-/:-@[-`{-~]/g, "\\$&");
}

/**
 * Web and e-mail addresses in plain text: GFM makes them links when the Markdown is read, so they
 * are written as the links they will be (unescaped, as a link's text is).
 */
function withAddressesAsLinks(runs: Run[]): Run[] {
  return runs.flatMap((run) => {
    if (run.link !== undefined || run.code || !/:\/\/|www\.|@/.test(run.text)) return [run];
    const pieces: Run[] = [];
    let emitted = 0; // the text before this index is in pieces
    let position = 0;
    for (const word of run.text.split(/(\s+)/)) {
      let offset = position;
      position += word.length;
      if (!/:\/\/|www\.|@/.test(word)) continue;
      for (const token of Lexer.lexInline(word, LEX_OPTIONS)) {
        const link = token as Tokens.Link;
        const href = token.type === "link" && link.raw === link.text ? safeUrl(link.href) : undefined;
        if (href) {
          if (offset > emitted) pieces.push({ ...run, text: run.text.slice(emitted, offset) });
          pieces.push({ ...run, text: link.raw, link: href });
          emitted = offset + link.raw.length;
        }
        offset += token.raw.length;
      }
    }
    if (emitted < run.text.length) pieces.push({ ...run, text: run.text.slice(emitted) });
    return pieces;
  });
}

/** Does marked read this Markdown as these runs? */
function readsBack(markdown: string, runs: Run[]): boolean {
  const parsed = inlineRuns(Lexer.lexInline(markdown, LEX_OPTIONS));
  if (!parsed) return false;
  const merged = normalizedRuns(parsed);
  const expected = normalizedRuns(runs);
  return (
    merged.length === expected.length &&
    merged.every((run, i) => run.text === expected[i]!.text && FORMATS.every((f) => run[f] === expected[i]![f]))
  );
}

/**
 * Spaces collapsed and trimmed as the page shows them (inline code too: Quill reads the page's
 * HTML, where they collapse), neighbours with the same formats merged.
 */
function normalizedRuns(lineRuns: Run[]): Run[] {
  const runs: Run[] = [];
  let previousSpace = true; // the line's start: leading spaces go
  for (const run of lineRuns) {
    const text: string = run.text.replace(/[ \t\n]+/g, " ");
    const kept: string = previousSpace ? text.replace(/^ /, "") : text;
    if (!kept) continue;
    previousSpace = kept.endsWith(" ");
    const last = runs.at(-1);
    if (last && FORMATS.every((f) => last[f] === run[f])) last.text += kept;
    else runs.push({ text: kept, ...Object.fromEntries(FORMATS.filter((f) => run[f] !== undefined).map((f) => [f, run[f]])) });
  }
  const last = runs.at(-1);
  if (last) {
    last.text = last.text.replace(/ $/, "");
    if (!last.text) runs.pop();
  }
  return runs;
}

/** Stands for an element beside a stretch of text: its Markdown starts or ends with punctuation. */
const ELEMENT = "\uFFFC";

interface Context {
  inHeading: boolean;
  inLinkText: boolean;
  /** May a link whose text is its address be written bare? */
  bareLinks: boolean;
  /** The plain text beside this stretch of text: ELEMENT for an element, undefined at the line's edge. */
  before: string | undefined;
  after: string | undefined;
  /** Formats that could not be written where they are. */
  failures: { id: number; format: RunFormat }[];
}

/**
 * Writes runs as nested elements: the format spanning the most runs goes outside (so
 * "*a **b** c*" stays so), its stretches become elements, and the rest nests inside them.
 */
function nested(runs: Run[], formats: RunFormat[], context: Context): string {
  if (runs.length === 0) return "";
  const plain = (run: Run) => formats.every((f) => run[f] === undefined);
  const format = widestFormat(runs, formats);
  if (!format) return escapeMarkdownText(runs.map((run) => run.text).join(""), context);
  const inner = formats.filter((f) => f !== format);
  const parts: string[] = [];
  for (let start = 0; start < runs.length; ) {
    let end = start + 1;
    while (end < runs.length && runs[end]![format] === runs[start]![format]) end++;
    const group = runs.slice(start, end);
    const before = start === 0 ? context.before : plain(runs[start - 1]!) ? runs[start - 1]!.text : ELEMENT;
    const after = end === runs.length ? context.after : plain(runs[end]!) ? runs[end]!.text : ELEMENT;
    if (group[0]![format] === undefined) {
      parts.push(nested(group, inner, { ...context, before, after }));
    } else {
      parts.push(element(format, group, inner, { ...context, before, after }));
    }
    start = end;
  }
  // "!" just before a link would make it an image.
  return parts.reduce(
    (out, part) => (part.startsWith("[") && /(^|[^\\])(\\\\)*!$/.test(out) ? `${out.slice(0, -1)}\\!${part}` : out + part),
    "",
  );
}

/** The format set on the longest stretch of neighbouring runs (a link: the same address), ties in FORMATS order. */
function widestFormat(runs: Run[], formats: RunFormat[]): RunFormat | undefined {
  let best: RunFormat | undefined;
  let bestLength = 0;
  // Code goes innermost ("**`a`**", "[`a`](u)"): nothing but text can be inside a code span.
  for (const format of formats.filter((f) => f !== "code")) {
    let length = 0;
    runs.forEach((run, index) => {
      if (run[format] === undefined) return;
      let end = index;
      while (end < runs.length && runs[end]![format] === run[format]) end++;
      length = Math.max(length, end - index);
    });
    if (length > bestLength) [best, bestLength] = [format, length];
  }
  return best ?? (formats.includes("code") && runs.some((run) => run.code) ? "code" : undefined);
}

/** One element: its Markdown around the runs inside it, spaces at its edges moved outside. */
function element(format: RunFormat, group: Run[], inner: RunFormat[], context: Context): string {
  const text = group.map((run) => run.text).join("");
  // Spaces in code are its own (a code span keeps them).
  const leading = group[0]!.code ? "" : /^ */.exec(text)![0];
  const trailing = group.at(-1)!.code || text.length === leading.length ? "" : / *$/.exec(text)![0];
  if (leading.length === text.length || format === "code") {
    // marked cannot find a link's end past a code span holding a backtick: such code stays text there.
    if (format === "code") return context.inLinkText && text.includes("`") ? escapeMarkdownText(text, context) : codeSpan(text);
    return text; // only spaces: no element
  }
  const runs = group.map((run) => ({ ...run }));
  runs[0]!.text = runs[0]!.text.slice(leading.length);
  if (!runs[0]!.text) runs.shift();
  runs.at(-1)!.text = runs.at(-1)!.text.slice(0, runs.at(-1)!.text.length - trailing.length);
  if (!runs.at(-1)!.text) runs.pop();
  const before = leading ? " " : context.before;
  const after = trailing ? " " : context.after;
  let markdown: string;
  if (format === "link") {
    const href = group[0]!.link!;
    const bare =
      context.bareLinks &&
      runs.length === 1 &&
      inner.every((f) => runs[0]![f] === undefined) &&
      isBareLink(runs[0]!.text, href, before, after);
    const content = nested(runs, inner, { ...context, inLinkText: true, before: ELEMENT, after: ELEMENT });
    markdown = bare ? runs[0]!.text : `[${content}](${linkDestination(href)})`;
  } else {
    // What touches the element's inside edges is judged against what is outside it: if the
    // element cannot keep its delimiters, they meet.
    const content = nested(runs, inner, { ...context, before, after });
    const delimiter = DELIMITERS[format];
    markdown = `${delimiter}${content}${delimiter}`;
    if (!canDelimit(delimiter, content, before, after)) context.failures.push(...runs.map((run) => ({ id: run.id!, format })));
  }
  return leading + markdown + trailing;
}

function codeSpan(text: string): string {
  let delimiter = "`";
  while (text.includes(delimiter)) delimiter += "`";
  // A space keeps a backtick at the edge apart from the delimiter (and is stripped when read).
  const pad = /^`|`$|^ .*[^ ].* $/.test(text) ? " " : "";
  return `${delimiter}${pad}${text}${pad}${delimiter}`;
}

const PUNCTUATION = /[\p{P}\p{S}]/u;
const isWordChar = (char: string | undefined) => char !== undefined && !/\s/.test(char) && !PUNCTUATION.test(char);

/**
 * Can "**", "*" or "~~" around this Markdown count as emphasis? Not with a letter outside and
 * punctuation inside ("a**(b)**" is plain text in CommonMark). `before`/`after` are the plain
 * characters beside the element, if any.
 */
function canDelimit(delimiter: string, inner: string, before: string | undefined, after: string | undefined): boolean {
  // Nested delimiters of the same character join this one's run ("***b***"): look past them.
  const family = `\\${delimiter[0]}+`;
  const first = inner.replace(new RegExp(`^${family}`), "")[0] ?? "";
  const last = inner.replace(new RegExp(`${family}$`), "").at(-1) ?? "";
  return !(isWordChar(before?.at(-1)) && PUNCTUATION.test(first)) && !(isWordChar(after?.[0]) && PUNCTUATION.test(last));
}

/**
 * May a link be written as its bare text, a URL or e-mail address that GFM turns into exactly
 * this link by itself? Only with a space or nothing before it and after it (trailing
 * punctuation aside).
 */
function isBareLink(text: string, href: string, before: string | undefined, after: string | undefined): boolean {
  // GFM leaves trailing punctuation out of a bare link: allowed after it before a space.
  const trailing = after === undefined ? "" : /^[.,:;!?]*(?=\s|$)/.exec(after)?.[0];
  if (!/^(https?:\/\/|www\.)|@/.test(text) || !/(^|\s)$/.test(before ?? "") || trailing === undefined) return false;
  const tokens = Lexer.lexInline(text + trailing, LEX_OPTIONS);
  const link = tokens[0];
  return link?.type === "link" && link.raw === text && safeUrl((link as Tokens.Link).href) === href;
}

/** As a link destination is written: parentheses escaped, in angle brackets if it has spaces. */
function linkDestination(href: string): string {
  const escaped = href.replace(/([<>()\\])/g, "\\$1");
  return escaped.includes(" ") ? `<${escaped}>` : escaped;
}
