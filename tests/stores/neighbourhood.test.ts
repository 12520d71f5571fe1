/**
 * The notes store's neighbourhood read (what the note graph loads a level at a time) on the
 * database under test: ancestor chains, children and grandchildren in sibling order, inbound
 * references oldest first, deleted notes out of the lists.
 */
import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { run } from "../../src/store/session";
import { databaseUnderTestOfFile } from "../support/database-under-test";
import { note, notebook, seed, user } from "./seed";

const under = databaseUnderTestOfFile();

test("chains, children, grandchildren and inbound references of many notes in one read", async () => {
  const ids = await seed(under.database, function* (s) {
    const { userId } = yield* user(s, "hood");
    const { notebookId, headNoteId: root } = yield* notebook(s, userId, "Root");
    const a = yield* note(s, notebookId, root, "A", 0, 1);
    const b = yield* note(s, notebookId, root, "B", 0, 2);
    const a2 = yield* note(s, notebookId, a, "A2", 0, 2);
    const a1 = yield* note(s, notebookId, a, "A1", 0, 1);
    const gone = yield* note(s, notebookId, a, "Gone", 0, 3);
    yield* run(
      s,
      s.db
        .update(s.t.notes)
        .set({ deletedAt: new Date(0) })
        .where(eq(s.t.notes.id, gone)),
    );
    const b1 = yield* note(s, notebookId, b, "B1", 0, 1);
    const link = yield* note(s, notebookId, b1, "related to", 0, 1);
    yield* run(s, s.db.update(s.t.notes).set({ targetNoteId: a1 }).where(eq(s.t.notes.id, link)));
    return { root, a, b, a1, a2, b1, link };
  });
  const loaded = await under.stores.notes.neighbourhoodRows({
    ancestorsOf: [ids.a1, ids.link],
    grandchildrenOf: [ids.root],
    childrenOf: [ids.a1],
    inboundReferencesTo: [ids.a1, ids.a2],
    notes: [999_999],
  });
  const title = new Map(loaded.rows.map((row) => [row.id, row.title]));
  const named = (list: number[]) => list.map((id) => title.get(id));
  expect(new Set(title.values())).toEqual(new Set(["Root", "A", "B", "A1", "A2", "B1", "related to"]));
  const children = new Map(loaded.children);
  expect(named(children.get(ids.root)!)).toEqual(["A", "B"]);
  expect(named(children.get(ids.a)!)).toEqual(["A1", "A2"]);
  expect(named(children.get(ids.b)!)).toEqual(["B1"]);
  expect(children.get(ids.a1)).toEqual([]);
  expect(new Map(loaded.inbound)).toEqual(
    new Map([
      [ids.a1, [ids.link]],
      [ids.a2, []],
    ]),
  );
});
