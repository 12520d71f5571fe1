/**
 * Answer keys are for the notebook's editors. A reader (a bazaar visitor, a subscriber) lists a
 * note's questions without their correct index and cannot get it back through a fine-tuning
 * suggestion; the assessment checks every answer on the server, so without the key a reader who
 * answers wrongly does not pass.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { type HttpClient, useTestServer } from "../support/server";

describe("answer keys", () => {
  const server = useTestServer();
  let owner: HttpClient;
  let member: HttpClient;
  let reader: HttpClient;
  let noteId: number;
  let notebookId: number;

  beforeEach(async () => {
    const admin = server.client();
    await admin.post("/api/testability/inject_circle", { circleName: "Team", members: "old_learner, a_trainer" });
    const ids = (
      await admin.post("/api/testability/inject_notes", {
        externalIdentifier: "old_learner",
        circleName: "Team",
        noteTestData: [{ Title: "Countries" }, { Title: "France", "Parent Title": "Countries" }],
      })
    ).body;
    noteId = ids.France;
    await admin.post("/api/testability/share_to_bazaar", { noteTopology: "Countries" });
    owner = await server.client().loginAs("old_learner");
    member = await server.client().loginAs("a_trainer");
    reader = await server.client().loginAs("another_old_learner");
    notebookId = (await owner.get(`/api/notes/${noteId}`)).body.notebook.id;
    const added = await owner.post(`/api/predefined-questions/${noteId}/note-questions`, {
      multipleChoicesQuestion: { stem: "Capital of France?", choices: ["Lyon", "Paris"] },
      correctAnswerIndex: 1,
    });
    expect(added.status).toBe(200);
    expect((await owner.post(`/api/predefined-questions/${added.body.id}/toggle-approval`)).status).toBe(200);
    expect((await owner.post(`/api/notebooks/${notebookId}`, { numberOfQuestionsInAssessment: 1 })).status).toBe(200);
  });

  const questions = (client: HttpClient) => client.get(`/api/predefined-questions/${noteId}/note-questions`);

  test("editors get the correct index; readers get the questions without it", async () => {
    for (const editor of [owner, member]) {
      expect((await questions(editor)).body).toEqual([
        {
          id: expect.any(Number),
          multipleChoicesQuestion: { stem: "Capital of France?", choices: ["Lyon", "Paris"] },
          correctAnswerIndex: 1,
          approved: true,
        },
      ]);
    }
    const read = await questions(reader);
    expect(read.status).toBe(200);
    expect(read.body).toEqual([
      { id: expect.any(Number), multipleChoicesQuestion: { stem: "Capital of France?", choices: ["Lyon", "Paris"] }, approved: true },
    ]);
    expect(read.text).not.toContain("correct");
    expect((await server.client().get(`/api/predefined-questions/${noteId}/note-questions`)).status).toBe(401);
  });

  test("a reader cannot get the key back through a fine-tuning suggestion", async () => {
    const [question] = (await questions(reader)).body;
    const suggested = await reader.post(`/api/predefined-questions/${question.id}/suggest-fine-tuning`, { isPositiveFeedback: true });
    expect(suggested.status).toBe(403);
    expect(suggested.text).not.toContain("correct");
    expect((await owner.post(`/api/predefined-questions/${question.id}/suggest-fine-tuning`, { isPositiveFeedback: true })).status).toBe(
      200,
    );
  });

  test("the assessment checks answers on the server: a reader who answers wrongly does not pass", async () => {
    const attempt = await reader.post(`/api/assessment/questions/${notebookId}`);
    expect(attempt.status).toBe(200);
    expect(attempt.text).not.toContain("correct");
    const [instance] = attempt.body.assessmentQuestionInstances;
    const answered = await reader.post(`/api/assessment/${instance.id}/answer`, { choiceIndex: 0 });
    expect(answered.body.answer.correct).toBe(false);
    expect((await reader.post(`/api/assessment/${attempt.body.id}`)).body.isPass).toBe(false);
  });
});
