/**
 * Every call of the permission policy's async functions in src/ is awaited (or its promise
 * returned): a forgotten await on an authorize call would skip the permission check silently.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root, sourceFiles } from "../support/store-boundary";
import { unawaitedPolicyCalls } from "../support/unawaited-policy";

describe("the policy is awaited", () => {
  test("no call of the policy's async functions in src/ leaves its promise unwaited", () => {
    // src/store's bodies of the same names are generators, composed with yield* inside a unit.
    const offenders = sourceFiles("src")
      .filter((file) => !file.startsWith("src/store/"))
      .flatMap((file) => unawaitedPolicyCalls(readFileSync(join(root, file), "utf8")).map(({ line, call }) => `${file}:${line} ${call}`));
    expect(offenders).toEqual([]);
  });

  test("the check sees each way of leaving the promise unwaited", () => {
    const calls = (source: string) => unawaitedPolicyCalls(source).map(({ line, call }) => `${line} ${call}`);
    expect(calls("  authorizeEdit(ctx, current, notebook);")).toEqual(["1 authorizeEdit"]);
    expect(calls("if (!isCircleMember(ctx, circleId, userId)) refuse(current);")).toEqual(["1 isCircleMember"]);
    expect(calls("const ok = notebooks.some((n) => notebookAccess(ctx, current, n));")).toEqual(["1 notebookAccess"]);
    expect(calls("answer(ctx, () => json(noteGraph(ctx, current, id)));")).toEqual(["1 noteGraph"]);
    expect(calls("const x = 1;\nconst readable = ReadableNotes.of(ctx, reader);")).toEqual(["2 ReadableNotes.of"]);
    // Waited for: awaited, returned, or the body of an arrow whose caller gets the promise.
    expect(calls("  await authorizeEdit(ctx, current, notebook);")).toEqual([]);
    expect(calls("if (!(await isCircleMember(ctx, circleId, userId))) refuse(current);")).toEqual([]);
    expect(calls("  return authorizeRead(ctx, current, notebook);")).toEqual([]);
    expect(calls("await Promise.all(notebooks.map((n) => notebookAccess(ctx, current, n)));")).toEqual([]);
    expect(calls("const missing = [...(await readableNoteIds(ctx, current, ids))];")).toEqual([]);
    // Declarations, imports and comments are not calls.
    expect(calls("export async function authorizeRead(ctx: AppContext) {}")).toEqual([]);
    expect(calls('import { authorizeRead, notebookRole } from "../policies";')).toEqual([]);
    expect(calls("// authorizeRead(ctx, current, notebook) first\n/* notebookRole(ctx) */")).toEqual([]);
    // A method of another object with the same name is not the policy's.
    expect(calls("other.authorizeRead(x);")).toEqual([]);
  });
});
