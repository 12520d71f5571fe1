/**
 * The admin's "Fine Tuning Data" over real HTTP with a real fake OpenAI server: every call as
 * admin (works), as a user (403) and signed out (401); the edit rules of spec 5; duplicate and
 * delete; and the trigger, which uploads two JSONL files (checked line by line) and starts a job
 * on the configured base model for each.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { QUESTION_INSTRUCTION } from "../../src/ai/question-generation";
import { injectNotes } from "../support/notes";
import { type HttpClient, startTestServer, useTestServerWithFakeOpenAI } from "../support/server";

const edit = (stem: string, choices: string[], correctChoiceIndex: number, extra: Record<string, unknown> = {}) => ({
  preservedQuestion: { multipleChoicesQuestion: { stem, choices }, correctChoiceIndex, strictChoiceOrder: false },
  ...extra,
});

describe("fine-tuning data", () => {
  const { server, fake } = useTestServerWithFakeOpenAI();
  let admin: HttpClient;
  let learner: HttpClient;
  let anonymous: HttpClient;
  let ids: Record<string, number>;

  beforeEach(async () => {
    anonymous = server.client();
    ids = await injectNotes(
      anonymous,
      [{ Title: "Countries" }, { Title: "France", "Parent Title": "Countries", Details: "Its capital is Paris." }],
      "old_learner",
    );
    admin = await server.client().loginAs("admin");
    learner = await server.client().loginAs("old_learner");
  });

  /** A learner adds a question on France and suggests it for fine-tuning, through the real API. */
  async function suggest(isPositiveFeedback: boolean, stem = "What is the capital of France?", comment = "") {
    const added = await learner.post(`/api/predefined-questions/${ids.France}/note-questions`, {
      multipleChoicesQuestion: { stem, choices: ["Lyon", "Paris", "Nice"] },
      correctAnswerIndex: 1,
    });
    expect(added.status).toBe(200);
    const suggested = await learner.post(`/api/predefined-questions/${added.body.id}/suggest-fine-tuning`, { isPositiveFeedback, comment });
    expect(suggested.status).toBe(200);
    return suggested.body as { id: number };
  }

  test("every call: 401 signed out, 403 for a user (changing nothing), works for an admin", async () => {
    const { id } = await suggest(true);
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/fine-tuning/all-suggested-questions-for-fine-tuning"],
      ["PATCH", `/api/fine-tuning/${id}/update-suggested-question-for-fine-tuning`, edit("Changed?", ["a", "b"], 0)],
      ["POST", `/api/fine-tuning/${id}/duplicate`],
      ["GET", "/api/fine-tuning/settings"],
      ["POST", "/api/fine-tuning/settings", { baseModel: "gpt-4.1-mini-2025-04-14" }],
      ["POST", "/api/fine-tuning/upload-and-trigger-fine-tuning"],
      ["POST", `/api/fine-tuning/${id}/delete`],
    ];
    for (const [method, path, json] of calls) {
      const options = json === undefined ? {} : { json };
      expect(`${method} ${path} ${(await anonymous.request(method, path, options)).status}`).toBe(`${method} ${path} 401`);
      expect(`${method} ${path} ${(await learner.request(method, path, options)).status}`).toBe(`${method} ${path} 403`);
    }
    // Nothing changed and nothing was sent to the provider.
    const list = (await admin.get("/api/fine-tuning/all-suggested-questions-for-fine-tuning")).body;
    expect(list.map((s: { id: number }) => s.id)).toEqual([id]);
    expect(list[0].preservedQuestion.multipleChoicesQuestion.stem).toBe("What is the capital of France?");
    expect(fake.files).toHaveLength(0);
    // A bad id is 400 or 404 for an admin, never 500.
    expect((await admin.post("/api/fine-tuning/999999/duplicate")).status).toBe(404);
    expect((await admin.post("/api/fine-tuning/0/delete")).status).toBe(400);
    for (const [method, path, json] of calls) {
      const status = (await admin.request(method, path, json === undefined ? {} : { json })).status;
      // The trigger refuses (too few examples) with 400; everything else works.
      expect(`${method} ${path} ${status}`).toBe(`${method} ${path} ${path.endsWith("trigger-fine-tuning") ? 400 : 200}`);
    }
  });

  test("the inject_suggested_questions hook creates examples as given", async () => {
    const example = {
      positiveFeedback: false,
      preservedNoteContent: "About Paris",
      realCorrectAnswers: "0,1",
      preservedQuestion: {
        multipleChoicesQuestion: { stem: "Capital?", choices: ["Paris", "Lyon"] },
        correctChoiceIndex: 0,
        strictChoiceOrder: false,
      },
    };
    expect(
      (await anonymous.post("/api/testability/inject_suggested_questions", { examples: [example, { ...example, positiveFeedback: true }] }))
        .status,
    ).toBe(200);
    const list = (await admin.get("/api/fine-tuning/all-suggested-questions-for-fine-tuning")).body;
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ ...example, comment: "" });
    expect(list[1].positiveFeedback).toBe(true);
  });

  test("the list shows what the learner suggested; an edit trims the choices, drops blanks and keeps a number list", async () => {
    const { id } = await suggest(false, "Capital?", "Two answers look right");
    const [listed] = (await admin.get("/api/fine-tuning/all-suggested-questions-for-fine-tuning")).body;
    expect(listed).toMatchObject({
      id,
      comment: "Two answers look right",
      positiveFeedback: false,
      realCorrectAnswers: "",
      preservedQuestion: { multipleChoicesQuestion: { stem: "Capital?", choices: ["Lyon", "Paris", "Nice"] }, correctChoiceIndex: 1 },
    });
    expect(listed.preservedNoteContent).toContain("Its capital is Paris.");
    const url = `/api/fine-tuning/${id}/update-suggested-question-for-fine-tuning`;
    const saved = await admin.patch(
      url,
      edit("  Which is the capital of France? ", [" Paris ", "", "  ", "Lyon"], 0, {
        realCorrectAnswers: "0, 1",
        comment: " only Paris ",
      }),
    );
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      id,
      comment: "only Paris",
      realCorrectAnswers: "0,1",
      positiveFeedback: false,
      preservedQuestion: {
        multipleChoicesQuestion: { stem: "Which is the capital of France?", choices: ["Paris", "Lyon"] },
        correctChoiceIndex: 0,
      },
    });
    // A long note (200,000 characters of details) keeps its description through an edit.
    const longContent = "x".repeat(210_000);
    expect((await admin.patch(url, { preservedNoteContent: longContent })).body.preservedNoteContent).toBe(longContent);
    expect((await admin.patch(url, { preservedNoteContent: "x".repeat(250_001) })).status).toBe(400);
    // Positive feedback: the real correct answer is the question's own (the field is hidden).
    const positive = await admin.patch(url, {
      ...edit("Capital?", ["Lyon", "Paris"], 1),
      positiveFeedback: true,
      realCorrectAnswers: "nonsense",
    });
    expect(positive.body).toMatchObject({ positiveFeedback: true, realCorrectAnswers: "1" });
  });

  test("edit errors: fewer than 2 choices, an index out of range, real answers that are not a number list", async () => {
    const { id } = await suggest(false);
    const url = `/api/fine-tuning/${id}/update-suggested-question-for-fine-tuning`;
    const fewChoices = await admin.patch(url, edit("Capital?", ["Paris", " ", "", ""], 0));
    expect(fewChoices.status).toBe(400);
    expect(fewChoices.body.errors).toEqual({ "preservedQuestion.multipleChoicesQuestion.choices": "At least 2 choices are required" });
    const outOfRange = await admin.patch(url, edit("Capital?", ["Paris", "", "Lyon", ""], 2));
    expect(outOfRange.body.errors).toEqual({ "preservedQuestion.correctChoiceIndex": "Correct choice index is out of range" });
    const notNumbers = await admin.patch(url, edit("Capital?", ["Paris", "Lyon"], 0, { realCorrectAnswers: "0, Paris" }));
    expect(notNumbers.body.errors).toEqual({ realCorrectAnswers: "must be a number list" });
    expect((await admin.patch(url, edit("Capital?", ["a", "b", "c", "d", "e"], 0))).status).toBe(400);
    const notAnObject = await admin.patch(url, "not an object");
    expect(notAnObject.status).toBe(400);
    expect(notAnObject.body.errors).toEqual({ body: "must be an object" });
    // Who may call is still decided first.
    expect((await server.client().patch(url, "not an object")).status).toBe(401);
    // The contract requires both: null is a field error (left out, they keep their value).
    const nulls = await admin.patch(url, { ...edit("Capital?", ["Paris", "Lyon"], 0), preservedQuestion: null, realCorrectAnswers: null });
    expect(nulls.status).toBe(400);
    expect(nulls.body.errors).toEqual({ preservedQuestion: "must not be null", realCorrectAnswers: "must not be null" });
    // Nothing of the refused edits was kept; an empty list is allowed.
    const emptyAllowed = await admin.patch(url, edit("Capital?", ["Paris", "Lyon"], 0, { realCorrectAnswers: "" }));
    expect(emptyAllowed.status).toBe(200);
    expect(emptyAllowed.body.preservedQuestion.multipleChoicesQuestion.choices).toEqual(["Paris", "Lyon"]);
  });

  test("a field of the wrong type or length is a field error under the form's key, and nothing is kept", async () => {
    const { id } = await suggest(false);
    const url = `/api/fine-tuning/${id}/update-suggested-question-for-fine-tuning`;
    const errorsOf = async (body: unknown) => {
      const answer = await admin.patch(url, body);
      expect(answer.status).toBe(400);
      return answer.body.errors;
    };
    expect(await errorsOf(edit("Capital?", ["Paris", "x".repeat(1001)], 0))).toEqual({
      "preservedQuestion.multipleChoicesQuestion.choices": "must be at most 4 texts of at most 1000 characters",
    });
    expect(await errorsOf(edit("Capital?", ["Paris", 7] as never, 0))).toEqual({
      "preservedQuestion.multipleChoicesQuestion.choices": "must be at most 4 texts of at most 1000 characters",
    });
    expect(await errorsOf({ preservedQuestion: { multipleChoicesQuestion: "Capital?" } })).toEqual({
      preservedQuestion: "must be a question with its choices",
    });
    expect(await errorsOf(edit("x".repeat(5001), ["Paris", "Lyon"], -1))).toEqual({
      "preservedQuestion.multipleChoicesQuestion.stem": "must be text of at most 5000 characters",
      "preservedQuestion.correctChoiceIndex": "Correct choice index is out of range",
    });
    expect(await errorsOf({ comment: "x".repeat(2001), positiveFeedback: "yes" })).toEqual({
      comment: "must be text of at most 2000 characters",
      positiveFeedback: "must be true or false",
    });
    const list = (await admin.get("/api/fine-tuning/all-suggested-questions-for-fine-tuning")).body;
    expect(list[0].preservedQuestion.multipleChoicesQuestion.stem).toBe("What is the capital of France?");
  });

  test("duplicate makes an independent copy; delete removes one", async () => {
    const { id } = await suggest(true, "Original?");
    const copy = await admin.post(`/api/fine-tuning/${id}/duplicate`);
    expect(copy.status).toBe(200);
    expect(copy.body.id).not.toBe(id);
    expect(copy.body.preservedQuestion.multipleChoicesQuestion.stem).toBe("Original?");
    await admin.patch(`/api/fine-tuning/${copy.body.id}/update-suggested-question-for-fine-tuning`, edit("Variant?", ["a", "b"], 0));
    const list = (await admin.get("/api/fine-tuning/all-suggested-questions-for-fine-tuning")).body;
    expect(
      list.map(
        (s: { preservedQuestion: { multipleChoicesQuestion: { stem: string } } }) => s.preservedQuestion.multipleChoicesQuestion.stem,
      ),
    ).toEqual(["Original?", "Variant?"]);
    expect((await admin.post(`/api/fine-tuning/${id}/delete`)).body.id).toBe(id);
    expect((await admin.get("/api/fine-tuning/all-suggested-questions-for-fine-tuning")).body.map((s: { id: number }) => s.id)).toEqual([
      copy.body.id,
    ]);
    expect((await admin.post(`/api/fine-tuning/${id}/delete`)).status).toBe(404);
  });

  test("the trigger uploads the question and evaluation files as chat JSONL and starts a job on the base model for each", async () => {
    for (let i = 0; i < 10; i++) await suggest(true, `Positive ${i}?`);
    const negative = await suggest(false, "Negative?", "Nice is not a capital");
    await admin.patch(`/api/fine-tuning/${negative.id}/update-suggested-question-for-fine-tuning`, {
      ...edit("Negative?", ["Lyon", "Paris", "Nice"], 1),
      realCorrectAnswers: "1",
    });
    expect((await admin.post("/api/fine-tuning/settings", { baseModel: "  gpt-4.1-mini-2025-04-14 " })).body).toEqual({
      baseModel: "gpt-4.1-mini-2025-04-14",
    });
    expect((await admin.post("/api/fine-tuning/settings", { baseModel: " " })).body.errors.baseModel).toBeDefined();

    const result = await admin.post("/api/fine-tuning/upload-and-trigger-fine-tuning");
    expect(result.status).toBe(200);
    expect(result.body.message).toBe("Training initiated.");
    expect(fake.files.map((f) => [f.purpose, f.filename.split("-")[0], f.filename.endsWith(".jsonl")])).toEqual([
      ["fine-tune", "Question", true],
      ["fine-tune", "Evaluation", true],
    ]);
    expect(fake.fineTuningJobs).toEqual([
      { id: expect.any(String), training_file: fake.files[0]!.id, model: "gpt-4.1-mini-2025-04-14" },
      { id: expect.any(String), training_file: fake.files[1]!.id, model: "gpt-4.1-mini-2025-04-14" },
    ]);

    const questionLines = fake.files[0]!.content.split("\n").map((line) => JSON.parse(line));
    expect(questionLines).toHaveLength(10); // positive feedback only
    expect(questionLines[0].messages.map((m: { role: string }) => m.role)).toEqual(["system", "user", "assistant"]);
    expect(questionLines[0].messages[0].content).toContain("Its capital is Paris.");
    expect(questionLines[0].messages[1].content).toBe(QUESTION_INSTRUCTION);
    expect(JSON.parse(questionLines[0].messages[2].content)).toEqual({
      multipleChoicesQuestion: { stem: "Positive 0?", choices: ["Lyon", "Paris", "Nice"] },
      correctChoiceIndex: 1,
      strictChoiceOrder: false,
    });
    const evaluationLines = fake.files[1]!.content.split("\n").map((line) => JSON.parse(line));
    expect(evaluationLines).toHaveLength(11); // all feedback
    expect(evaluationLines[10].messages[1].content).toContain('{"stem":"Negative?","choices":["Lyon","Paris","Nice"]}');
    expect(JSON.parse(evaluationLines[10].messages[2].content)).toEqual({
      correctChoices: [1],
      feasibleQuestion: false,
      improvementAdvices: "Nice is not a capital",
    });
    expect(JSON.parse(evaluationLines[0].messages[2].content)).toEqual({
      correctChoices: [1],
      feasibleQuestion: true,
      improvementAdvices: "",
    });
  });

  test("the trigger refuses too few examples, passes on the provider's refusal, and says when AI is not configured", async () => {
    for (let i = 0; i < 9; i++) await suggest(true, `Positive ${i}?`);
    await suggest(false, "Negative?");
    const tooFew = await admin.post("/api/fine-tuning/upload-and-trigger-fine-tuning");
    expect(tooFew.status).toBe(400);
    expect(tooFew.body.message).toBe("Positive feedback cannot be less than 10.");
    expect(fake.files).toHaveLength(0);

    await suggest(true, "Positive 9?");
    fake.on("POST", "/fine_tuning/jobs", () =>
      Response.json(
        {
          error: {
            message: "Model gpt-4o-mini-2024-07-18 is not available for fine-tuning",
            type: "invalid_request_error",
            param: "model",
            code: null,
          },
        },
        { status: 400, headers: { "x-should-retry": "false" } },
      ),
    );
    const refused = await admin.post("/api/fine-tuning/upload-and-trigger-fine-tuning");
    expect(refused.status).toBe(502);
    expect(refused.body.message).toBe("Trigger Fine-Tuning Failed: Model gpt-4o-mini-2024-07-18 is not available for fine-tuning");

    const noAi = await startTestServer();
    try {
      await noAi.client().post("/api/testability/clean_db_and_reset_testability_settings");
      const noAiAdmin = await noAi.client().loginAs("admin");
      const answer = await noAiAdmin.post("/api/fine-tuning/upload-and-trigger-fine-tuning");
      expect(answer.status).toBe(503);
      expect(answer.body.message).toBe("AI is not configured");
    } finally {
      await noAi.stop();
    }
  }, 20_000); // starts a second server
});
