/**
 * "Manage Assistant" over real HTTP: the default additional instructions, recreating the default
 * assistant (Engram's own record: nothing sent to the provider), the admin's notebook list and
 * the notebook dump (admin or the notebook's editors only). Each call as admin, user and signed out.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import type { NotebookDumpJson } from "../../src/services/admin/assistant";
import { injectNotes } from "../support/notes";
import { type HttpClient, useTestServerWithFakeOpenAI } from "../support/server";

describe("manage assistant", () => {
  const { server, fake } = useTestServerWithFakeOpenAI();
  let admin: HttpClient;
  let learner: HttpClient;
  let other: HttpClient;
  let anonymous: HttpClient;
  let ids: Record<string, number>;
  let notebookId: number;

  beforeEach(async () => {
    anonymous = server.client();
    ids = await injectNotes(
      anonymous,
      [
        { Title: "Countries" },
        { Title: "France", "Parent Title": "Countries", Details: "Its capital is Paris." },
        { Title: "Paris", "Parent Title": "France" },
        { Title: "Europe", "Parent Title": "Countries" },
      ],
      "old_learner",
    );
    admin = await server.client().loginAs("admin");
    learner = await server.client().loginAs("old_learner");
    other = await server.client().loginAs("non_admin");
    expect(
      (await learner.post("/api/testability/link_notes", { type: "a part of", source_id: ids.France, target_id: ids.Europe })).status,
    ).toBe(200);
    notebookId = (await learner.get("/api/notebooks")).body.notebooks[0].id;
  });

  test("admin calls: 401 signed out, 403 for a user (changing nothing), work for an admin", async () => {
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/ai/assistant/default"],
      ["PATCH", "/api/ai/assistant/default", { additionalInstructions: "Answer in French." }],
      ["POST", "/api/ai/assistant/recreate-default"],
      ["GET", "/api/admin/notebooks"],
      ["GET", `/api/notebooks/${notebookId}/dump`],
    ];
    for (const [method, path, json] of calls) {
      const options = json === undefined ? {} : { json };
      expect(`${method} ${path} ${(await anonymous.request(method, path, options)).status}`).toBe(`${method} ${path} 401`);
      expect(`${method} ${path} ${(await other.request(method, path, options)).status}`).toBe(`${method} ${path} 403`);
    }
    expect((await admin.get("/api/ai/assistant/default")).body).toEqual({ additionalInstructionsToAi: "", defaultAssistant: null });
    for (const [method, path, json] of calls) {
      const status = (await admin.request(method, path, json === undefined ? {} : { json })).status;
      expect(`${method} ${path} ${status}`).toBe(`${method} ${path} 200`);
    }
    expect((await admin.get("/api/notebooks/999999/dump")).status).toBe(404);
  });

  test("the default instructions are kept; recreate rebuilds the assistant from them and the Others model, without the provider", async () => {
    const saved = await admin.patch("/api/ai/assistant/default", { additionalInstructions: "  Answer in French.  " });
    expect(saved.body.additionalInstructionsToAi).toBe("Answer in French.");
    expect((await admin.patch("/api/ai/assistant/default", { additionalInstructions: "x".repeat(10_001) })).status).toBe(400);
    expect(
      (await admin.patch("/api/ai/assistant/default", { additionalInstructions: 3 })).body.errors.additionalInstructions,
    ).toBeDefined();
    await admin.post("/api/settings/current-model-version", { othersModel: "gpt-4.1-mini" });

    const recreated = await admin.post("/api/ai/assistant/recreate-default");
    expect(recreated.status).toBe(200);
    expect(recreated.body).toMatchObject({
      name: "Notebook assistant",
      model: "gpt-4.1-mini",
      additionalInstructions: "Answer in French.",
    });
    expect(recreated.body.instructions).toContain("personal knowledge management");
    expect(recreated.body.instructions).toEndWith("Answer in French.");
    for (const value of Object.values(recreated.body)) expect(typeof value).toBe("string"); // a map of strings, as the reference's
    expect((await admin.get("/api/ai/assistant/default")).body).toEqual({
      additionalInstructionsToAi: "Answer in French.",
      defaultAssistant: recreated.body,
    });
    expect(fake.requests).toHaveLength(0);
  });

  test("an admin lists every notebook; the dump has the notebook's settings, every note and link, and downloads as notebook-dump.json", async () => {
    await injectNotes(anonymous, [{ Title: "Admin's own" }], "admin");
    const listed = (await admin.get("/api/admin/notebooks")).body.map((n: { title: string }) => n.title);
    expect(listed).toEqual(expect.arrayContaining(["Countries", "Admin's own"]));
    await learner.post(`/api/notes/${ids.Paris}/delete`);

    const dump = await admin.get(`/api/notebooks/${notebookId}/dump`);
    expect(dump.status).toBe(200);
    expect(dump.headers.get("content-disposition")).toBe('attachment; filename="notebook-dump.json"');
    expect(dump.body.notebook).toMatchObject({ id: notebookId, title: "Countries", notebookSettings: { certificateExpiry: "1y" } });
    const notes = (dump.body as NotebookDumpJson).notes;
    expect(notes[0]).toMatchObject({ uri: `/n${ids.Countries}`, title: "Countries" });
    expect(notes.find((n) => n.title === "France")).toMatchObject({
      details: "Its capital is Paris.",
      parentUriAndTitle: `[Countries](/n${ids.Countries})`,
      recallSetting: { level: 0 },
    });
    expect(notes.find((n) => n.predicate === "a part of")).toMatchObject({
      subjectUriAndTitle: `[France](/n${ids.France})`,
      objectUriAndTitle: `[Europe](/n${ids.Europe})`,
    });
    expect(notes.some((n) => n.title === "Paris")).toBe(false); // deleted notes are left out
    expect(notes).toHaveLength(4); // Countries, France, Europe and the link

    // The notebook's owner may dump it too; a reader of the bazaar may not.
    expect((await learner.get(`/api/notebooks/${notebookId}/dump`)).status).toBe(200);
    await anonymous.post("/api/testability/share_to_bazaar", { noteTopology: "Countries" });
    const refused = await other.get(`/api/notebooks/${notebookId}/dump`);
    expect(refused.status).toBe(403);
    expect(refused.text).not.toContain("Countries");
  });
});
