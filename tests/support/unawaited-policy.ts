/**
 * Finds calls of the permission policy's async functions whose promise nobody waits for: a
 * forgotten `await` on an authorize call would skip the check silently (the refusal becomes an
 * unhandled rejection and the request goes on). Biome's noFloatingPromises sees a bare statement
 * call; this also sees a promise negated, compared, passed to an array predicate or to a value
 * that takes anything (JSON.stringify), which it does not.
 *
 * A call is waited for when `await` or `return` stands right before it, or it is the whole body
 * of an arrow (the arrow's caller gets the promise) that is not an array predicate or callback.
 */

/** The policy's async functions, and the graph's that ask it (they refuse as it does). */
export const POLICY_FUNCTIONS = [
  "notebookRole",
  "notebookAccess",
  "authorizeRead",
  "authorizeEdit",
  "authorizeRecall",
  "authorizeShare",
  "authorizeMoveToCircle",
  "authorizeMoveNote",
  "authorizeSubscribe",
  "authorizeAssessment",
  "authorizeCertificationRequest",
  "authorizeConversationParty",
  "authorizeCircleMember",
  "isCircleMember",
  "notebookTie",
  "othersHoldNotebook",
  "readableNotebookIds",
  "readableNotebookIdsAt",
  "readableNoteIds",
  "ReadableNotes.of",
  "NotePresenter.of",
  "buildGraph",
  "noteGraph",
  "graphDescription",
  "noteDescription",
] as const;

const escaped = (name: string) => name.replace(".", "\\.");
const CALL = new RegExp(`(?<![\\w.$])(${POLICY_FUNCTIONS.map(escaped).join("|")})\\s*\\(`, "g");
/** An arrow that is handed to an array method: what it answers is used as a value there, never awaited. */
const ARRAY_CALLBACK = /\.(some|every|filter|find|findIndex|findLast|forEach|flatMap|reduce|sort)\(\s*(async\s+)?(\([^()]*\)|\w+)\s*=>\s*$/;

/** The source with comments blanked out (same length, so offsets keep their lines). */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (comment) => comment.replace(/[^\n]/g, " "));
}

/** Each call in the source whose promise is not waited for: its line (from 1) and the function called. */
export function unawaitedPolicyCalls(source: string): { line: number; call: string }[] {
  const code = withoutComments(source);
  const found: { line: number; call: string }[] = [];
  for (const match of code.matchAll(CALL)) {
    const before = code.slice(Math.max(0, match.index - 200), match.index);
    const line = code.slice(0, match.index).split("\n").length;
    const lineStart = code.lastIndexOf("\n", match.index) + 1;
    const lineBefore = code.slice(lineStart, match.index);
    // Declarations and imports name the function without calling it.
    if (/\b(function\*?|import|export\s*\{)\s*[\w\s,{]*$/.test(lineBefore) || /^\s*(import|export)\b/.test(lineBefore)) continue;
    if (/\b(await|return)\s*$/.test(before)) continue;
    if (/=>\s*$/.test(before) && !ARRAY_CALLBACK.test(before)) continue;
    found.push({ line, call: match[1]! });
  }
  return found;
}
