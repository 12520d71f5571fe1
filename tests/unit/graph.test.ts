/**
 * The note graph on small trees built through the services in a real
 * temporary database: priority layers, relations, the token budget and its estimate.
 */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { readConfig } from "../../src/config";
import { createSqliteContext } from "../../src/context";
import { accounts } from "../../src/db/schema";
import { ForbiddenError, UnauthorizedError } from "../../src/services/errors";
import { estimateTokens, truncateDetails } from "../../src/services/graph/bare-note";
import { buildGraph, describeGraph, type GraphRAGResult } from "../../src/services/graph/build-graph";
import { createLink } from "../../src/services/links/link-service";
import { createNotebook } from "../../src/services/notebooks";
import { createNote, deleteNote, updateDetails } from "../../src/services/notes/note-service";
import { linkNotes } from "../../src/services/testability/link-notes";
import { cleanDatabaseAndResetTestabilitySettings } from "../../src/services/testability/reset";
import { shareNotebookOfNoteToBazaar } from "../../src/services/testability/sharing";
import type { CurrentUser } from "../../src/services/users";
import { byAccount } from "../../src/store/users/users-store";

const dataDir = mkdtempSync(join(tmpdir(), "engram-graph-"));
const ctx = createSqliteContext(readConfig({ ENGRAM_MODE: "test", ENGRAM_DATA_DIR: dataDir, PORT: "0" }));
afterAll(() => {
  ctx.sqlite.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function userNamed(externalIdentifier: string): CurrentUser {
  const account = ctx.db.select().from(accounts).where(eq(accounts.externalIdentifier, externalIdentifier)).get()!;
  return { account, user: ctx.database.readNow((s) => byAccount(s, account.id))! };
}

let learner: CurrentUser;
/** Note ids by name; link notes are named "<subject> -> <object>". */
let ids: Record<string, number>;
beforeEach(async () => {
  await cleanDatabaseAndResetTestabilitySettings(ctx);
  learner = userNamed("old_learner");
  ids = {};
});

/** Creates notes in order: [title, parent title (none starts a notebook), details]. */
async function notes(rows: [string, string?, string?][], owner = learner) {
  for (const [title, parent, details] of rows) {
    ids[title] = parent
      ? (await createNote(ctx, owner, { under: ids[parent]! }, { newTitle: title })).created.id
      : (await createNotebook(ctx, owner, { newTitle: title })).noteId;
    if (details) await updateDetails(ctx, owner, ids[title]!, details);
  }
}

async function link(subject: string, object: string, type = "related to") {
  await createLink(ctx, learner, ids[subject]!, ids[object]!, type);
  ids[`${subject} -> ${object}`] = (await ctx.stores.notes.childrenOf(ids[subject]!)).at(-1)!.id;
}

const nameOf = (uri: string) => Object.entries(ids).find(([, id]) => `/n${id}` === uri)?.[0] ?? uri;
const related = (graph: GraphRAGResult) => graph.relatedNotes.map((n) => [nameOf(n.uri), n.relationToFocusNote]);
const relatedNamed = (graph: GraphRAGResult, relation: string) =>
  graph.relatedNotes.filter((n) => n.relationToFocusNote === relation).map((n) => nameOf(n.uri));
const ref = (name: string) => `[${name}](/n${ids[name]})`;

describe("priority layers", () => {
  beforeEach(async () => {
    await notes([
      ["Root"],
      ["A", "Root"],
      ["P1", "A"],
      ["P2", "A"],
      ["Focus", "A", "The focus"],
      ["C1", "Focus"],
      ["C2", "Focus"],
      ["C3", "Focus"],
      ["Y1", "A"],
      ["Y2", "A"],
      ["B", "Root"],
      ["B1", "B"],
    ]);
  });

  test("parent and ancestors come first; then children, prior and younger siblings take turns; the parent's siblings and their children last", async () => {
    const graph = await buildGraph(ctx, learner, ids.Focus!, 5000);
    expect(related(graph)).toEqual([
      ["A", "Parent"],
      ["Root", "AncestorInContextualPath"],
      ["C1", "Child"],
      ["P2", "PriorSibling"],
      ["Y1", "YoungerSibling"],
      ["C2", "Child"],
      ["P1", "PriorSibling"],
      ["Y2", "YoungerSibling"],
      ["C3", "Child"],
      ["B", "SiblingOfParent"],
      ["B1", "ChildOfSiblingOfParent"],
    ]);
  });

  test("the focus note has full details, its contextual path root first, and lists what was included (prior siblings in creation order)", async () => {
    const { focusNote } = await buildGraph(ctx, learner, ids.Focus!, 5000);
    expect(focusNote).toEqual({
      uri: `/n${ids.Focus}`,
      title: "Focus",
      parentUriAndTitle: ref("A"),
      relationToFocusNote: "Self",
      details: "The focus",
      contextualPath: [ref("Root"), ref("A")],
      children: [ref("C1"), ref("C2"), ref("C3")],
      priorSiblings: [ref("P1"), ref("P2")],
      youngerSiblings: [ref("Y1"), ref("Y2")],
      inboundReferences: [],
    });
    expect(Object.keys(focusNote)).toEqual([
      "uri",
      "title",
      "parentUriAndTitle",
      "relationToFocusNote",
      "details",
      "contextualPath",
      "children",
      "priorSiblings",
      "youngerSiblings",
      "inboundReferences",
    ]);
  });

  test("a related note has its parent, relation and details, keys in the reference's order", async () => {
    await updateDetails(ctx, learner, ids.C1!, "first child");
    const c1 = (await buildGraph(ctx, learner, ids.Focus!, 5000)).relatedNotes.find((n) => n.uri === `/n${ids.C1}`);
    expect(Object.entries(c1!)).toEqual([
      ["uri", `/n${ids.C1}`],
      ["title", "C1"],
      ["parentUriAndTitle", ref("Focus")],
      ["relationToFocusNote", "Child"],
      ["details", "first child"],
    ]);
  });

  test("deleted notes never appear", async () => {
    await deleteNote(ctx, learner, ids.C2!);
    await deleteNote(ctx, learner, ids.B!);
    const graph = await buildGraph(ctx, learner, ids.Focus!, 5000);
    expect(JSON.stringify(graph)).not.toContain(`/n${ids.C2})`);
    expect(related(graph).map(([name]) => name)).not.toContain("B");
    expect(related(graph).map(([name]) => name)).not.toContain("B1");
    expect(graph.focusNote.children).toEqual([ref("C1"), ref("C3")]);
  });

  test("the parent's siblings are visited in a spiral: nearest left, nearest right, then the next pair", async () => {
    await notes([["G"], ["L2", "G"], ["L1", "G"], ["Mid", "G"], ["R1", "G"], ["R2", "G"], ["R3", "G"], ["X", "Mid"]]);
    expect(relatedNamed(await buildGraph(ctx, learner, ids.X!, 5000), "SiblingOfParent")).toEqual(["L1", "R1", "L2", "R2", "R3"]);
  });
});

describe("links", () => {
  test("a link note is shown as subject, predicate and object; its object, the object's ancestors and the object's parent's siblings are related", async () => {
    await notes([
      ["Home"],
      ["Subject", "Home"],
      ["World"],
      ["Europe", "World"],
      ["Asia", "World"],
      ["Africa", "World"],
      ["Paris", "Europe"],
      ["Tokyo", "Asia"],
    ]);
    await link("Subject", "Paris", "a part of");
    const graph = await buildGraph(ctx, learner, ids["Subject -> Paris"]!, 5000);
    expect(Object.entries(graph.focusNote).slice(0, 5)).toEqual([
      ["uri", `/n${ids["Subject -> Paris"]}`],
      ["subjectUriAndTitle", ref("Subject")],
      ["predicate", "a part of"],
      ["objectUriAndTitle", ref("Paris")],
      ["relationToFocusNote", "Self"],
    ]);
    expect(related(graph)).toEqual([
      ["Subject", "Parent"],
      ["Paris", "Object"],
      ["Home", "AncestorInContextualPath"],
      // Layer 1 has added 3: layer 2 runs, handing over to layers 3 and 4 after every 3 of its own.
      ["World", "AncestorInObjectContextualPath"],
      ["Asia", "SiblingOfParentOfObject"],
      ["Europe", "AncestorInObjectContextualPath"],
      ["Tokyo", "ChildOfSiblingOfParentOfObject"],
      ["Africa", "SiblingOfParentOfObject"],
    ]);
  });

  test("a reified child brings its object (layer 3) and the object's other inbound references (layer 4)", async () => {
    await notes([["Focus"], ["Plain", "Focus"], ["Things"], ["Object", "Things"], ["Other", "Things"]]);
    await link("Focus", "Object", "using");
    await link("Other", "Object", "similar to");
    const graph = await buildGraph(ctx, learner, ids.Focus!, 5000);
    expect(related(graph)).toEqual([
      ["Plain", "Child"],
      ["Focus -> Object", "Child"],
      ["Object", "ObjectOfReifiedChild"],
      ["Other -> Object", "InboundReferenceToObjectOfReifiedChild"],
    ]);
    const reified = graph.relatedNotes[1]!;
    expect(reified).toEqual({
      uri: `/n${ids["Focus -> Object"]}`,
      subjectUriAndTitle: ref("Focus"),
      predicate: "using",
      objectUriAndTitle: ref("Object"),
      relationToFocusNote: "Child",
    });
    expect(graph.focusNote.children).toEqual([ref("Plain"), `[using](/n${ids["Focus -> Object"]})`]);
  });

  test("an inbound reference brings its subject (layer 3), then the subject's children and the reference's contextual path (layer 4)", async () => {
    await notes([["Focus"], ["Elsewhere"], ["Subject", "Elsewhere"], ["Cousin", "Subject"]]);
    await link("Subject", "Focus", "an example of");
    const graph = await buildGraph(ctx, learner, ids.Focus!, 5000);
    expect(related(graph)).toEqual([
      ["Subject -> Focus", "InboundReference"],
      ["Subject", "SubjectOfInboundReference"],
      ["Elsewhere", "InboundReferenceContextualPath"],
      ["Cousin", "SiblingOfSubjectOfInboundReference"],
    ]);
    expect(graph.focusNote.inboundReferences).toEqual([`[an example of](/n${ids["Subject -> Focus"]})`]);
  });

  test("notes in notebooks the reader may not read are left out, until the reader may read them", async () => {
    await notes([["Mine"]]);
    await notes([["Theirs"], ["Their subject", "Theirs"]], userNamed("another_old_learner"));
    await linkNotes(ctx, ids["Their subject"]!, ids.Mine!, "related to");
    const graph = await buildGraph(ctx, learner, ids.Mine!, 5000);
    expect(graph.relatedNotes).toEqual([]);
    expect(graph.focusNote.inboundReferences).toEqual([]);
    await shareNotebookOfNoteToBazaar(ctx, "Theirs");
    expect((await buildGraph(ctx, learner, ids.Mine!, 5000)).relatedNotes).toHaveLength(3);
  });

  test("the reader must be allowed to read the focus note", async () => {
    await notes([["Mine", undefined, "My details"]]);
    await expect(buildGraph(ctx, userNamed("another_old_learner"), ids.Mine!, 5000)).rejects.toThrow(ForbiddenError);
    await expect(buildGraph(ctx, undefined, ids.Mine!, 5000)).rejects.toThrow(UnauthorizedError);
  });
});

describe("token budget", () => {
  test("tokens are estimated as ⌈UTF-8 bytes of the compact JSON / 3.75⌉", async () => {
    expect(estimateTokens({ uri: "/n1" })).toBe(4); // {"uri":"/n1"}: 13 bytes
    expect(estimateTokens({ uri: "/n1", title: "abcdef" })).toBe(8); // 30 bytes → exactly 8
    expect(estimateTokens({ uri: "/n1", title: "abcdefg" })).toBe(9); // 31 bytes → 8.27
    expect(estimateTokens({ uri: "/n1", title: "é" })).toBe(7); // 26 bytes: é is 2 bytes → 6.93
  });

  test("related details are cut at 500 UTF-8 bytes with '...' appended; the focus keeps its details", async () => {
    expect(truncateDetails("x".repeat(500))).toBe("x".repeat(500));
    expect(truncateDetails("x".repeat(501))).toBe(`${"x".repeat(500)}...`);
    expect(truncateDetails("é".repeat(300))).toBe(`${"é".repeat(250)}...`);
    expect(truncateDetails(`${"x".repeat(499)}😀`)).toBe(`${"x".repeat(499)}...`);
    await notes([
      ["Parent", undefined, "é".repeat(300)],
      ["Focus", "Parent", "ü".repeat(400)],
    ]);
    const graph = await buildGraph(ctx, learner, ids.Focus!, 5000);
    expect(graph.focusNote.details).toBe("ü".repeat(400));
    expect(graph.relatedNotes[0]!.details).toBe(`${"é".repeat(250)}...`);
  });

  test("the focus is paid for first; a candidate that does not fit is skipped and smaller ones after it still come in", async () => {
    await notes([["Root"], ["Big", "Root", "b".repeat(800)], ["Focus", "Big"], ["Small child", "Focus"], ["Another", "Focus"]]);
    const full = await buildGraph(ctx, learner, ids.Focus!, 100_000);
    const cost = (name: string) => estimateTokens(full.relatedNotes.find((n) => n.uri === `/n${ids[name]}`)!);
    const focusCost = estimateTokens({ ...full.focusNote, children: [], priorSiblings: [], youngerSiblings: [], inboundReferences: [] });
    expect(related(full).map(([name]) => name)).toEqual(["Big", "Root", "Small child", "Another"]);

    // Enough for everything but the big parent.
    const limit = focusCost + cost("Root") + cost("Small child") + cost("Another");
    expect(cost("Big")).toBeGreaterThan(cost("Root"));
    const graph = await buildGraph(ctx, learner, ids.Focus!, limit);
    expect(related(graph).map(([name]) => name)).toEqual(["Root", "Small child", "Another"]);
    expect(graph.focusNote.children).toEqual([ref("Small child"), ref("Another")]);

    // One token less: the last one no longer fits.
    expect(related(await buildGraph(ctx, learner, ids.Focus!, limit - 1)).map(([name]) => name)).toEqual(["Root", "Small child"]);
    // Only the focus fits.
    const alone = await buildGraph(ctx, learner, ids.Focus!, focusCost);
    expect(alone.relatedNotes).toEqual([]);
    expect(alone.focusNote.contextualPath).toEqual([ref("Root"), ref("Big")]);
    expect(alone.focusNote.children).toEqual([]);
  });

  test("the whole result stays within the limit, and a larger limit takes in more", async () => {
    await notes([["Root"], ["Focus", "Root"]]);
    for (let i = 10; i < 40; i++) await notes([[`Child ${i}`, "Focus", `details of child ${i} `.repeat(5)]]);
    const counts: number[] = [];
    for (const limit of [100, 300, 1000, 5000]) {
      const graph = await buildGraph(ctx, learner, ids.Focus!, limit);
      const focusCost = estimateTokens({ ...graph.focusNote, children: [], priorSiblings: [], youngerSiblings: [], inboundReferences: [] });
      const total = focusCost + graph.relatedNotes.reduce((sum, n) => sum + estimateTokens(n), 0);
      expect(total).toBeLessThanOrEqual(limit);
      // Every child costs the same, so the first one left out ends the list.
      const childCost = estimateTokens((await buildGraph(ctx, learner, ids.Focus!, 100_000)).relatedNotes.at(-1)!);
      if (graph.relatedNotes.length < 31) expect(limit - total).toBeLessThan(childCost);
      counts.push(graph.relatedNotes.length);
    }
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(counts[0]).toBeLessThan(5);
    expect(counts[3]).toBe(31);
  });
});

test("the description for AI prompts is the header and the pretty JSON of the graph", async () => {
  await notes([["Root"], ["Focus", "Root"]]);
  const graph = await buildGraph(ctx, learner, ids.Focus!);
  const text = describeGraph(graph);
  expect(text.startsWith('Focus Note and the notes related to it:\n{\n  "focusNote": {')).toBe(true);
  expect(JSON.parse(text.slice(text.indexOf("\n")))).toEqual(graph);
});

test("a graph is read in at most four store calls, however many notes surround the focus", async () => {
  await notes([
    ["Root"],
    ["A", "Root"],
    ["B", "Root"],
    ["B1", "B"],
    ["Focus", "A"],
    ["Sibling", "A"],
    ["Things"],
    ["Object", "Things"],
    ["Other", "Things"],
    ["Other child", "Other"],
    ["Elsewhere"],
    ["Subject", "Elsewhere"],
    ["Cousin", "Subject"],
  ]);
  for (let i = 0; i < 12; i++)
    await notes([
      [`Child ${i}`, "Focus"],
      [`Grandchild ${i}`, `Child ${i}`],
    ]);
  await link("Focus", "Object", "using");
  await link("Other", "Object", "similar to");
  await link("Subject", "Focus", "an example of");
  await link("Sibling", "Other", "related to");
  const store = ctx.stores.notes;
  const original = store.neighbourhoodRows;
  let calls = 0;
  store.neighbourhoodRows = (request) => {
    calls++;
    return original(request);
  };
  try {
    for (const [name, id] of Object.entries(ids)) {
      calls = 0;
      const graph = await buildGraph(ctx, learner, id, 100_000);
      expect({ name, calls: calls <= 4 }).toEqual({ name, calls: true });
      if (name === "Focus") expect(graph.relatedNotes.length).toBeGreaterThan(20);
    }
  } finally {
    store.neighbourhoodRows = original;
  }
});
