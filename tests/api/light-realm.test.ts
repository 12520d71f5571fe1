/**
 * Bytes: a note's realm lists its children by title and short details, never their full
 * details, so opening a note (or its parent in the tree) does not download every sibling's text.
 */
import { describe, expect, test } from "bun:test";
import { injectNotes } from "../support/notes";
import { useTestServer } from "../support/server";

describe("a light note realm", () => {
  const server = useTestServer();

  test("children carry title, short details and counts, not their full details; each child's own realm has them", async () => {
    const learner = await server.client().loginAs("old_learner");
    const long = `Opening words of a long note. ${"lorem ipsum ".repeat(10_000)}`;
    const ids = await injectNotes(learner, [
      { Title: "Parent", Details: "The parent's own details" },
      { Title: "Long child", "Parent Title": "Parent", Details: long },
      { Title: "Short child", "Parent Title": "Parent", Details: "Brief" },
      { Title: "Grandchild", "Parent Title": "Long child" },
    ]);
    const realm = (await learner.get(`/api/notes/${ids.Parent}`)).body;
    expect(realm.note.details).toBe("The parent's own details");
    expect(
      realm.children.map((c: { noteTopology: { titleOrPredicate: string; shortDetails: string }; childrenCount: number }) => [
        c.noteTopology.titleOrPredicate,
        c.noteTopology.shortDetails,
        c.childrenCount,
      ]),
    ).toEqual([
      ["Long child", "Opening words of a long note. lorem ipsum lorem ip...", 1],
      ["Short child", "Brief", 0],
    ]);
    for (const child of realm.children) expect(child).not.toHaveProperty("details");
    expect(JSON.stringify(realm).length).toBeLessThan(5_000);
    const own = (await learner.get(`/api/notes/${ids["Long child"]}`)).body;
    expect(own.note.details).toBe(long);
  });
});
