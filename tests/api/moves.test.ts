/**
 * Moving notes respects notebook boundaries (the policy's "move" rule, policies/index.ts):
 *   within a notebook                   its editors
 *   a note into another notebook        whoever may edit both notebooks
 *   a notebook's head note (the whole   its creator, while they may edit it, who may also edit
 *   notebook joins another)             the other notebook; refused while others hold something
 *                                       of it (subscriptions, certificates, assessment attempts,
 *                                       its bazaar entry)
 * and nothing another user owns is ever deleted by someone else's move, down to the database.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { NoteRealmJson } from "../../src/services/notes/presenters";
import { run } from "../../src/store/session";
import { type HttpClient, useTestServer } from "../support/server";
import { inWrite, sqlRow, sqlRun } from "../support/test-database";

type Actor = "creator" | "member" | "subscriber" | "stranger";

describe("moving notes across notebooks", () => {
  const server = useTestServer();
  const clients = {} as Record<Actor, HttpClient>;
  let ids: Record<string, number>;
  let circleNotebook: number;

  const inject = async (
    externalIdentifier: string,
    rows: { Title: string; "Parent Title"?: string }[],
    circleName: string | null = null,
  ) => {
    const result = await server.client().post("/api/testability/inject_notes", { externalIdentifier, circleName, noteTestData: rows });
    expect(result.status).toBe(200);
    return result.body as Record<string, number>;
  };

  /** What other learners hold of the circle notebook: counted straight in the database. */
  const held = async () => {
    const id = circleNotebook;
    const row = await sqlRow<{ n: number }>(
      server,
      sql`SELECT CAST((SELECT count(*) FROM subscriptions WHERE notebook_id = ${id}) + (SELECT count(*) FROM certificates WHERE notebook_id = ${id})
          + (SELECT count(*) FROM assessment_attempts WHERE notebook_id = ${id}) + (SELECT count(*) FROM bazaar_notebooks WHERE notebook_id = ${id}) AS integer) AS n`,
    );
    return row!.n;
  };

  const notebookOf = async (noteId: number) => (await clients.creator.get<NoteRealmJson>(`/api/notes/${noteId}`)).body.notebook!.id;

  beforeEach(async () => {
    const admin = server.client();
    expect((await admin.post("/api/testability/inject_circle", { circleName: "Team", members: "old_learner, a_trainer" })).status).toBe(
      200,
    );
    ids = {
      ...(await inject(
        "old_learner",
        [
          { Title: "Circle Book" },
          { Title: "Circle Note", "Parent Title": "Circle Book" },
          { Title: "Circle Other", "Parent Title": "Circle Book" },
        ],
        "Team",
      )),
      ...(await inject("old_learner", [{ Title: "Own Book" }, { Title: "Own Note", "Parent Title": "Own Book" }])),
      ...(await inject("a_trainer", [{ Title: "Trainer Book" }, { Title: "Trainer Note", "Parent Title": "Trainer Book" }])),
      ...(await inject("another_old_learner", [{ Title: "Reader Book" }])),
    };
    expect((await admin.post("/api/testability/share_to_bazaar", { noteTopology: "Circle Book" })).status).toBe(200);
    clients.creator = await server.client().loginAs("old_learner");
    clients.member = await server.client().loginAs("a_trainer");
    clients.subscriber = await server.client().loginAs("another_old_learner");
    clients.stranger = await server.client().loginAs("non_admin");
    circleNotebook = await notebookOf(ids["Circle Book"]!);
    expect(
      (await clients.subscriber.post(`/api/subscriptions/notebooks/${circleNotebook}/subscribe`, { dailyTargetOfNewNotes: 5 })).status,
    ).toBe(200);
    // Another learner's certificate and assessment attempt of the circle notebook.
    const userId = (await sqlRow<{ id: number }>(server, sql`SELECT id FROM users WHERE name = 'Another Old Learner'`))!.id;
    const now = server.ctx.clock.now();
    await inWrite(server, function* (s) {
      yield* run(s, s.db.insert(s.t.certificates).values({ userId, notebookId: circleNotebook, startDate: now, expiryDate: now }));
      yield* run(
        s,
        s.db.insert(s.t.assessmentAttempts).values({ userId, notebookId: circleNotebook, totalQuestionCount: 1, createdAt: now }),
      );
    });
    expect(await held()).toBe(4);
  });

  const moveUnder = (actor: Actor, source: string, target: string) =>
    clients[actor].post(`/api/links/move/${ids[source]}/${ids[target]}`, { asFirstChild: false });
  const moveAfter = (actor: Actor, source: string, target: string, asFirstChild: boolean) =>
    clients[actor].post(`/api/notes/move_after/${ids[source]}/${ids[target]}/${asFirstChild}`);

  test("a circle member who is not the creator cannot take the notebook out of the circle", async () => {
    const moved = await moveUnder("member", "Circle Book", "Trainer Note");
    expect(moved.status).toBe(403);
    expect(moved.body.message).toBe("Only the creator of a notebook can move it");
    expect(await notebookOf(ids["Circle Book"]!)).toBe(circleNotebook);
    expect((await clients.creator.get(`/api/notes/${ids["Circle Note"]}`)).status).toBe(200);
    expect(await held()).toBe(4);
  });

  test("the creator cannot fold a notebook into another while others hold something of it", async () => {
    const moved = await moveUnder("creator", "Circle Book", "Own Note");
    expect(moved.status).toBe(400);
    expect(moved.body.message).toContain("cannot join another notebook");
    expect(await held()).toBe(4);
    expect(await notebookOf(ids["Circle Book"]!)).toBe(circleNotebook);
  });

  test("the creator folds a notebook nobody else holds into another one they may edit", async () => {
    await sqlRun(server, sql`DELETE FROM subscriptions`);
    await sqlRun(server, sql`DELETE FROM certificates`);
    await sqlRun(server, sql`DELETE FROM assessment_attempts`);
    await sqlRun(server, sql`DELETE FROM bazaar_notebooks`);
    expect((await moveUnder("creator", "Circle Book", "Own Note")).status).toBe(200);
    expect(await notebookOf(ids["Circle Note"]!)).toBe(await notebookOf(ids["Own Book"]!));
    // Not into a notebook they may not edit.
    expect((await moveUnder("creator", "Own Book", "Trainer Note")).status).toBe(403);
  });

  test("a note moves into another notebook only for whoever may edit both", async () => {
    expect((await moveUnder("subscriber", "Circle Note", "Reader Book")).status).toBe(403);
    expect((await moveUnder("stranger", "Circle Note", "Circle Other")).status).toBe(403);
    expect((await moveUnder("member", "Circle Note", "Own Note")).status).toBe(403);
    expect((await moveAfter("member", "Circle Note", "Own Note", true)).status).toBe(403);
    expect((await moveUnder("member", "Trainer Note", "Own Note")).status).toBe(403);
    expect(await notebookOf(ids["Circle Note"]!)).toBe(circleNotebook);
    // Within the notebook, and into a notebook the member may edit too.
    expect((await moveUnder("member", "Circle Note", "Circle Other")).status).toBe(200);
    expect((await moveAfter("member", "Circle Other", "Trainer Note", true)).status).toBe(200);
    expect(await held()).toBe(4);
  });

  test("a notebook's head note cannot be moved after a sibling, by anyone", async () => {
    expect((await moveAfter("creator", "Circle Book", "Own Note", false)).status).toBe(400);
  });

  test("the database refuses to delete a notebook others hold something of", async () => {
    const refusal = await sqlRun(server, sql`DELETE FROM notebooks WHERE id = ${circleNotebook}`).then(
      () => "deleted",
      // The trigger's message: drizzle wraps SQLite's error in its own (the cause), PostgreSQL's comes as it is.
      (error: Error) => (error.cause instanceof Error ? error.cause : error).message,
    );
    expect(refusal).toMatch(/others hold/);
    expect(await held()).toBe(4);
  });
});
