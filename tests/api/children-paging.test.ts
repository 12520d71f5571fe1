/**
 * Pages: a note's realm lists its first 40 children and says how many there are; the
 * rest come page by page from GET /api/notes/{note}/children?after=&limit=, in sibling order,
 * with the same permissions as the realm.
 */
import { describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { injectNotes } from "../support/notes";
import { useTestServer } from "../support/server";

const titles = (children: { noteTopology: { titleOrPredicate: string } }[]) => children.map((c) => c.noteTopology.titleOrPredicate);

describe("paged children of a note", () => {
  const server = useTestServer();

  async function seed(count: number) {
    const learner = await server.client().loginAs("old_learner");
    const rows = [{ Title: "Parent" }, ...Array.from({ length: count }, (_, i) => ({ Title: `Child ${i}`, "Parent Title": "Parent" }))];
    if (count > 41) rows.push({ Title: "Grandchild", "Parent Title": "Child 41" });
    const ids = await injectNotes(learner, rows);
    return { learner, ids };
  }

  test("the realm lists the first 40 children, the total, and where the next page starts", async () => {
    const { learner, ids } = await seed(95);
    const realm = (await learner.get(`/api/notes/${ids.Parent}`)).body;
    expect(realm.note.childrenCount).toBe(95);
    expect(titles(realm.children)).toEqual(Array.from({ length: 40 }, (_, i) => `Child ${i}`));
    expect(realm.moreChildrenAfter).toBe(ids["Child 39"]);
  });

  test("following the pages gives every child once, in sibling order, with their own counts", async () => {
    const { learner, ids } = await seed(95);
    const realm = (await learner.get(`/api/notes/${ids.Parent}`)).body;
    const all = [...realm.children];
    let after: number | undefined = realm.moreChildrenAfter;
    const pageSizes: number[] = [];
    while (after !== undefined) {
      const page = await learner.get(`/api/notes/${ids.Parent}/children?after=${after}&limit=25`);
      expect(page.status).toBe(200);
      pageSizes.push(page.body.children.length);
      all.push(...page.body.children);
      after = page.body.moreChildrenAfter;
    }
    expect(pageSizes).toEqual([25, 25, 5]);
    expect(titles(all)).toEqual(Array.from({ length: 95 }, (_, i) => `Child ${i}`));
    expect(all.find((c) => c.id === ids["Child 41"]).childrenCount).toBe(1);
    for (const child of all) expect(child).not.toHaveProperty("details");
    // Without `after`, from the first child; the default page is 40.
    const first = (await learner.get(`/api/notes/${ids.Parent}/children`)).body;
    expect(titles(first.children)).toEqual(titles(realm.children));
    expect(first.moreChildrenAfter).toBe(ids["Child 39"]);
  });

  test("a note with few children lists them all and no next page", async () => {
    const { learner, ids } = await seed(3);
    const realm = (await learner.get(`/api/notes/${ids.Parent}`)).body;
    expect(titles(realm.children)).toEqual(["Child 0", "Child 1", "Child 2"]);
    expect(realm.note.childrenCount).toBe(3);
    expect(realm).not.toHaveProperty("moreChildrenAfter");
    const exactly = await seed(40);
    const full = (await exactly.learner.get(`/api/notes/${exactly.ids.Parent}`)).body;
    expect(full.children.length).toBe(40);
    expect(full).not.toHaveProperty("moreChildrenAfter");
  });

  test("pages follow moves and deletions: a deleted child keeps its place as a cursor but is not listed", async () => {
    const { learner, ids } = await seed(45);
    expect((await learner.post(`/api/notes/${ids["Child 42"]}/delete`)).status).toBe(200);
    // Child 44 moves to the front.
    expect((await learner.post(`/api/notes/move_after/${ids["Child 44"]}/${ids.Parent}/true`)).status).toBe(200);
    const realm = (await learner.get(`/api/notes/${ids.Parent}`)).body;
    expect(realm.note.childrenCount).toBe(44);
    expect(titles(realm.children).slice(0, 2)).toEqual(["Child 44", "Child 0"]);
    const rest = (await learner.get(`/api/notes/${ids.Parent}/children?after=${realm.moreChildrenAfter}`)).body;
    expect(titles(rest.children)).toEqual(["Child 39", "Child 40", "Child 41", "Child 43"]);
    const afterDeleted = (await learner.get(`/api/notes/${ids.Parent}/children?after=${ids["Child 42"]}`)).body;
    expect(titles(afterDeleted.children)).toEqual(["Child 43"]);
  });

  test("MCP's get_note lists every child, not the realm's first page", async () => {
    const { learner, ids } = await seed(60);
    const token = (await learner.post("/api/user/generate-token", { label: "Claude" })).body.token;
    const mcp = new Client({ name: "engram-test", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const result = (await mcp.callTool({ name: "get_note", arguments: { noteId: ids.Parent } })) as CallToolResult;
      const note = JSON.parse(result.content.map((part) => (part.type === "text" ? part.text : "")).join(""));
      expect(note.children.map((c: { title: string }) => c.title)).toEqual(Array.from({ length: 60 }, (_, i) => `Child ${i}`));
    } finally {
      await mcp.close();
    }
  });

  test("bad parameters are 400 with the field named", async () => {
    const { learner, ids } = await seed(45);
    for (const query of ["limit=0", "limit=201", "limit=abc", "limit=-1", "after=0", "after=x"]) {
      const result = await learner.get(`/api/notes/${ids.Parent}/children?${query}`);
      expect(result.status, query).toBe(400);
      expect(JSON.stringify(result.body), query).toContain(query.split("=")[0]!);
    }
    expect((await learner.get(`/api/notes/${ids.Parent}/children?limit=200`)).status).toBe(200);
    // `after` must be one of this note's children.
    const notAChild = await learner.get(`/api/notes/${ids.Parent}/children?after=${ids.Grandchild}`);
    expect(notAChild.status).toBe(400);
    expect(notAChild.body.errors).toEqual({ after: "must be a child of the note" });
    expect((await learner.get(`/api/notes/999999/children`)).status).toBe(404);
  });

  test("the same permissions as the realm: signed out 401, another learner's notebook 403, a bazaar notebook readable signed out", async () => {
    const { ids } = await seed(45);
    const anonymous = server.client();
    expect((await anonymous.get(`/api/notes/${ids.Parent}/children`)).status).toBe(401);
    const other = await server.client().loginAs("another_old_learner");
    expect((await other.get(`/api/notes/${ids.Parent}/children`)).status).toBe(403);
    expect((await anonymous.post("/api/testability/share_to_bazaar", { noteTopology: "Parent" })).status).toBe(200);
    const shared = await anonymous.get(`/api/notes/${ids.Parent}/children?after=${ids["Child 39"]}`);
    expect(shared.status).toBe(200);
    expect(titles(shared.body.children)).toEqual(["Child 40", "Child 41", "Child 42", "Child 43", "Child 44"]);
  });
});
