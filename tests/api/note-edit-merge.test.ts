/**
 * Two people editing one note: each save says which revision of the text it was made from; the
 * server merges what changed since when the changes do not touch, answers 409 when they do, and
 * writes as sent for a client that gives no revision. An open note hears every save over
 * server-sent events, the policy asked for each event.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { MAX_STREAMS_PER_USER } from "../../src/services/notes/note-changes";
import { type HttpClient, useTestServer } from "../support/server";
import { eventReader } from "../support/sse";
import { sqlRun } from "../support/test-database";

describe("saving a note's text with the revision it was made from", () => {
  const server = useTestServer();
  let alice: HttpClient;
  let bob: HttpClient;
  let noteId: number;
  const base = "Mitochondria produce ATP.\n\nThey have their own DNA.";

  beforeEach(async () => {
    alice = await server.client().loginAs("old_learner");
    bob = await server.client().loginAs("another_old_learner");
    expect(
      (await alice.post("/api/testability/inject_circle", { circleName: "Lab", members: "old_learner, another_old_learner" })).status,
    ).toBe(200);
    const ids = await alice.post("/api/testability/inject_notes", {
      externalIdentifier: "old_learner",
      circleName: "Lab",
      noteTestData: [{ Title: "Cells" }, { Title: "Mitochondria", "Parent Title": "Cells", Details: base }],
    });
    noteId = ids.body.Mitochondria;
  });

  const details = (client: HttpClient, text: string, baseRevision?: number) =>
    client.patch(`/api/text_content/${noteId}/details`, baseRevision === undefined ? { details: text } : { details: text, baseRevision });

  test("the note tells its revisions; a save on the current one writes as sent and raises it", async () => {
    const realm = (await alice.get(`/api/notes/${noteId}`)).body;
    expect(realm.note.detailsRevision).toBe(0);
    expect(realm.note.titleRevision).toBe(0);
    const saved = await details(alice, `${base}\n\nMore.`, 0);
    expect(saved.status).toBe(200);
    expect(saved.body.note.details).toBe(`${base}\n\nMore.`);
    expect(saved.body.note.detailsRevision).toBe(1);
    expect(saved.body.note.titleRevision).toBe(0);
  });

  test("two people's changes in different places are both kept", async () => {
    const bobs = await details(bob, `${base}\n\nThey came from bacteria.`, 0);
    expect(bobs.body.note.detailsRevision).toBe(1);
    const alices = await details(alice, base.replace("produce ATP", "produce most ATP"), 0);
    expect(alices.status).toBe(200);
    expect(alices.body.note.details).toBe("Mitochondria produce most ATP.\n\nThey have their own DNA.\n\nThey came from bacteria.");
    expect(alices.body.note.detailsRevision).toBe(2);
    // Titles too.
    expect((await bob.patch(`/api/text_content/${noteId}/title`, { newTitle: "Mitochondria of cells", baseRevision: 0 })).status).toBe(200);
    const title = await alice.patch(`/api/text_content/${noteId}/title`, { newTitle: "The Mitochondria", baseRevision: 0 });
    expect(title.body.note.noteTopology.titleOrPredicate).toBe("The Mitochondria of cells");
  });

  test("changes in the same place are a conflict: 409, and nothing is written", async () => {
    await details(bob, base.replace("ATP", "energy"), 0);
    const alices = await details(alice, base.replace("ATP", "power"), 0);
    expect(alices.status).toBe(409);
    expect(alices.body.errorType).toBe("EDIT_CONFLICT");
    expect((await alice.get(`/api/notes/${noteId}`)).body.note.details).toBe(base.replace("ATP", "energy"));
    const title = await alice.patch(`/api/text_content/${noteId}/title`, { newTitle: "Mine", baseRevision: 0 });
    expect(title.status).toBe(200); // nothing else changed the title: no conflict
  });

  test("a save based on a revision no longer kept, or not yet made, is a conflict", async () => {
    for (let i = 1; i <= 55; i++) await details(bob, `${base} ${i}`);
    expect((await details(alice, `${base} mine`, 0)).status).toBe(409);
    expect((await details(alice, `${base} mine`, 99)).status).toBe(409);
    expect((await details(alice, `${base} 55 and mine`, 55)).status).toBe(200);
  });

  test("a client that sends no revision writes as before (the last save wins); a bad revision is refused", async () => {
    await details(bob, base.replace("ATP", "energy"), 0);
    const old = await details(alice, "Overwritten.");
    expect(old.status).toBe(200);
    expect(old.body.note.details).toBe("Overwritten.");
    expect((await details(alice, "x", -1)).status).toBe(400);
    expect((await alice.patch(`/api/text_content/${noteId}/details`, { details: "x", baseRevision: "one" })).status).toBe(400);
  });

  test("an open note hears each save (revisions only); the policy is asked at every event", async () => {
    const cookie = `engram_session=${alice.sessionCookie}`;
    const controller = new AbortController();
    const response = await fetch(`${server.url}/api/notes/${noteId}/changes`, { headers: { cookie }, signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const next = eventReader(response);
    expect(await next()).toEqual({ event: "revisions", data: { titleRevision: 0, detailsRevision: 0 } });
    await details(bob, `${base}\n\nBob's line.`, 0);
    expect(await next()).toEqual({ event: "revisions", data: { titleRevision: 0, detailsRevision: 1 } });
    await bob.patch(`/api/text_content/${noteId}/title`, { newTitle: "Mito", baseRevision: 0 });
    expect(await next()).toEqual({ event: "revisions", data: { titleRevision: 1, detailsRevision: 1 } });

    // Alice leaves the circle: the next save tells her nothing but that she can no longer read it.
    await sqlRun(
      server,
      sql`DELETE FROM circle_members WHERE user_id = (SELECT users.id FROM users JOIN accounts ON accounts.id = users.account_id WHERE accounts.external_identifier = 'old_learner')`,
    );
    await details(bob, `${base}\n\nSecret.`);
    const closed = await next();
    expect(closed.event).toBe("closed");
    expect(JSON.stringify(closed.data)).not.toContain("Secret");
    controller.abort();
  });

  test("the change stream is refused to the signed-out (401) and to those who may not read the note (403)", async () => {
    expect((await fetch(`${server.url}/api/notes/${noteId}/changes`)).status).toBe(401);
    const stranger = await server.client().loginAs("a_trainer");
    expect((await stranger.get(`/api/notes/${noteId}/changes`)).status).toBe(403);
  });

  test("one person may keep only so many change streams open", async () => {
    const cookie = `engram_session=${alice.sessionCookie}`;
    const controller = new AbortController();
    const open = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++)
      open.push(await fetch(`${server.url}/api/notes/${noteId}/changes`, { headers: { cookie }, signal: controller.signal }));
    expect(open.every((response) => response.status === 200)).toBe(true);
    expect((await alice.get(`/api/notes/${noteId}/changes`)).status).toBe(429);
    controller.abort();
  });
});
