import { diff3MergeRegions } from "node-diff3";

/**
 * Three-way merge of two people's edits of one text (a note's title or details), with node-diff3
 * (diff3 as in version control): `mine` and `theirs` were both made from `base`. Changes in
 * different places are both kept; changes that touch the same place are a conflict (undefined),
 * for the person to decide. Paragraphs and lines first (fast on long details), then, where both
 * changed the same ones, words: two people editing different sentences of one paragraph still
 * merge.
 */
export function mergeTexts(base: string, mine: string, theirs: string): string | undefined {
  if (mine === theirs || mine === base) return theirs;
  if (theirs === base) return mine;
  const merged: string[] = [];
  for (const region of regions(lines(mine), lines(base), lines(theirs))) {
    if (typeof region === "string") {
      merged.push(region);
      continue;
    }
    const [a, o, b] = [words(region.mine), words(region.base), words(region.theirs)];
    if (Math.max(a.length, o.length, b.length) > MAX_WORDS_TO_MERGE) return undefined;
    for (const inner of regions(a, o, b)) {
      if (typeof inner !== "string") return undefined;
      merged.push(inner);
    }
  }
  return merged.join("");
}

/**
 * Both changed one stretch of lines: merged word by word only up to this many words (diff3's
 * longest common subsequence slows down on long runs of repeated words); longer is a conflict.
 */
const MAX_WORDS_TO_MERGE = 4000;

type Region = string | { mine: string; base: string; theirs: string };

/**
 * diff3 over tokens: settled text, or where both sides changed the same tokens, the three
 * versions of that stretch. The tokens all three share at both ends are set aside first.
 */
function regions(a: string[], o: string[], b: string[]): Region[] {
  let head = 0;
  while (head < a.length && head < o.length && head < b.length && a[head] === o[head] && b[head] === o[head]) head++;
  let tail = 0;
  const room = Math.min(a.length, o.length, b.length) - head;
  while (tail < room && a[a.length - 1 - tail] === o[o.length - 1 - tail] && b[b.length - 1 - tail] === o[o.length - 1 - tail]) tail++;
  const middle = (list: string[]) => list.slice(head, list.length - tail);
  const result: Region[] = [o.slice(0, head).join("")];
  for (const region of diff3MergeRegions(middle(a), middle(o), middle(b))) {
    if (region.stable) {
      result.push(region.bufferContent.join(""));
      continue;
    }
    const [mine, base, theirs] = [region.aContent.join(""), region.oContent.join(""), region.bContent.join("")];
    if (mine === theirs || mine === base) result.push(theirs);
    else if (theirs === base) result.push(mine);
    else result.push({ mine, base, theirs });
  }
  result.push(o.slice(o.length - tail).join(""));
  return result;
}

/**
 * Lines, each with the line breaks after it (a paragraph and its blank line are one token): joined,
 * they give the text back. Blank lines are not tokens of their own, since diff3's longest common
 * subsequence slows down on a token that repeats thousands of times.
 */
function lines(text: string): string[] {
  return text.match(/\n+|[^\n]+\n*/g) ?? [];
}

/** Words, runs of spaces and single marks: joined, they give the text back. */
function words(text: string): string[] {
  return text.match(/\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu) ?? [];
}
