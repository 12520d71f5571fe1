/**
 * Anki's cloze deletions in field HTML: `{{c1::answer}}` or `{{c1::answer::hint}}`, numbered
 * (each number is one card), possibly nested (`{{c1::a {{c2::b}} c}}`). The card of number n
 * shows its question with every deletion n blanked ("[...]", or "[hint]" when it has a hint) and
 * the other deletions as plain text; its answer is the text of the deletions n.
 */

interface Deletion {
  ord: number;
  content: Part[];
  hint?: string;
}
type Part = string | Deletion;

const TOKEN = /\{\{c(\d+)::|::|\}\}/g;

/** The field split into text and deletions; unmatched markers stay text. */
function parse(html: string): Part[] {
  const root: Part[] = [];
  const open: { deletion: Deletion; inHint: boolean; opener: string }[] = [];
  const target = () => open.at(-1);
  const append = (text: string) => {
    if (!text) return;
    const current = target();
    if (!current) root.push(text);
    else if (current.inHint) current.deletion.hint = (current.deletion.hint ?? "") + text;
    else current.deletion.content.push(text);
  };
  let at = 0;
  for (const match of html.matchAll(TOKEN)) {
    append(html.slice(at, match.index));
    at = match.index + match[0].length;
    const current = target();
    if (match[1] !== undefined) {
      if (current?.inHint) append(match[0]);
      else open.push({ deletion: { ord: Number(match[1]), content: [] }, inHint: false, opener: match[0] });
    } else if (match[0] === "::") {
      if (current && !current.inHint) current.inHint = true;
      else append(match[0]);
    } else if (current) {
      open.pop();
      const parent = target();
      if (parent) parent.deletion.content.push(current.deletion);
      else root.push(current.deletion);
    } else append(match[0]);
  }
  append(html.slice(at));
  // Deletions never closed are text again, as written.
  while (open.length > 0) {
    const { deletion, opener, inHint } = open.pop()!;
    const text = [
      opener,
      ...deletion.content.map((part) => (typeof part === "string" ? part : render([part], undefined))),
      ...(inHint ? ["::", deletion.hint ?? ""] : []),
    ].join("");
    const parent = target();
    if (parent) parent.deletion.content.push(text);
    else root.push(text);
  }
  return root;
}

/** The parts as HTML: deletion `blank` blanked, every other deletion as its text. */
function render(parts: Part[], blank: number | undefined): string {
  return parts
    .map((part) => {
      if (typeof part === "string") return part;
      if (part.ord === blank) return `[${part.hint?.trim() ? part.hint.trim() : "..."}]`;
      return render(part.content, blank);
    })
    .join("");
}

function collect(parts: Part[], ord: number, into: string[]) {
  for (const part of parts) {
    if (typeof part === "string") continue;
    if (part.ord === ord) into.push(render(part.content, undefined));
    else collect(part.content, ord, into);
  }
}

export const hasCloze = (html: string) => /\{\{c\d+::/.test(html);

/** The question of card `ord` (1 for c1): its deletions blanked, the others as text (HTML). */
export const clozeQuestion = (html: string, ord: number) => render(parse(html), ord);

/** The field with every deletion as its text, hints dropped (HTML): what the answer side shows. */
export const clozeAnswer = (html: string) => render(parse(html), undefined);

/** The HTML of each deletion of card `ord`, in order. */
export function clozeDeletions(html: string, ord: number): string[] {
  const found: string[] = [];
  collect(parse(html), ord, found);
  return found;
}
