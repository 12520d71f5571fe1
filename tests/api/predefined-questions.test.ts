/**
 * A note's multiple-choice questions: listing, adding by hand with the spec's rules,
 * refining and generating with the AI (through the fake OpenAI server), approval and
 * suggestions for fine-tuning, each as the actors who may and may not.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { all, one, run } from "../../src/store/session";
import { injectNotes } from "../support/notes";
import { capital, mcq, messageText, QUESTION, scriptQuestion } from "../support/recall-prompts";
import { type HttpClient, useTestServer, useTestServerWithFakeOpenAI } from "../support/server";
import { inRead, inWrite } from "../support/test-database";

const REFINE = "refine_question";
const question = (stem: string, choices: unknown[], correctAnswerIndex = 0) => ({
  multipleChoicesQuestion: { stem, choices },
  correctAnswerIndex,
});
const paris = question("What is the capital of France?", ["Paris", "Lyon"], 0);

describe("predefined questions", () => {
  const { server, fake } = useTestServerWithFakeOpenAI();
  let owner: HttpClient;
  let reader: HttpClient;
  let stranger: HttpClient;
  let anonymous: HttpClient;
  let ids: Record<string, number>;

  beforeEach(async () => {
    anonymous = server.client();
    ids = await injectNotes(
      anonymous,
      [
        { Title: "Countries" },
        { Title: "France", "Parent Title": "Countries", Details: "Its capital is Paris." },
        { Title: "Spain", "Parent Title": "Countries", Details: "Its capital is Madrid." },
        { Title: "Secret Book" },
        { Title: "Secret plans", "Parent Title": "Secret Book" },
      ],
      "old_learner",
    );
    expect((await anonymous.post("/api/testability/share_to_bazaar", { noteTopology: "Countries" })).status).toBe(200);
    owner = await server.client().loginAs("old_learner");
    reader = await server.client().loginAs("non_admin"); // reads Countries from the bazaar
    stranger = await server.client().loginAs("another_old_learner");
  });

  const list = (client: HttpClient, noteId = ids.France) => client.get(`/api/predefined-questions/${noteId}/note-questions`);
  const add = (client: HttpClient, body: unknown, noteId = ids.France) =>
    client.post(`/api/predefined-questions/${noteId}/note-questions`, body);

  describe("adding by hand", () => {
    test("an editor adds a question (trimmed, not approved) and every reader of the note lists it", async () => {
      const added = await add(owner, question("  What is the capital of France? ", [" Paris", "Lyon "], 0));
      expect(added.status).toBe(200);
      expect(added.body).toEqual({
        id: expect.any(Number),
        multipleChoicesQuestion: { stem: "What is the capital of France?", choices: ["Paris", "Lyon"] },
        correctAnswerIndex: 0,
        approved: false,
      });
      await add(owner, question("Which city is in France?", ["Madrid", "Lyon", "Rome"], 1));
      for (const client of [owner, reader]) {
        const listed = await list(client);
        expect(listed.status).toBe(200);
        expect(listed.body.map((q: { multipleChoicesQuestion: { stem: string } }) => q.multipleChoicesQuestion.stem)).toEqual([
          "What is the capital of France?",
          "Which city is in France?",
        ]);
      }
      expect((await list(owner, ids.Spain)).body).toEqual([]);
    });

    test.each([
      ["a blank stem", question("   ", ["Paris", "Lyon"]), { "multipleChoicesQuestion.stem": "must not be blank" }],
      ["one choice", question("Capital?", ["Paris"]), { "multipleChoicesQuestion.choices": "must have 2 to 10 choices" }],
      [
        "eleven choices",
        question(
          "Capital?",
          Array.from({ length: 11 }, (_, i) => `City ${i}`),
        ),
        { "multipleChoicesQuestion.choices": "must have 2 to 10 choices" },
      ],
      ["a blank second choice", question("Capital?", ["Paris", " ", "Nice"]), { "multipleChoicesQuestion.choices.1": "must not be blank" }],
      ["a choice that is not text", question("Capital?", ["Paris", 3]), { "multipleChoicesQuestion.choices.1": "must be a text" }],
      [
        "the index past the choices",
        question("Capital?", ["Paris", "Lyon"], 2),
        { correctAnswerIndex: "must be the index of one of the choices (0 to 1)" },
      ],
      [
        "a negative index",
        question("Capital?", ["Paris", "Lyon"], -1),
        { correctAnswerIndex: "must be the index of one of the choices (0 to 1)" },
      ],
      [
        "a fractional index",
        question("Capital?", ["Paris", "Lyon"], 0.5),
        { correctAnswerIndex: "must be the index of one of the choices (0 to 1)" },
      ],
      [
        "a stem too long",
        question("x".repeat(2001), ["Paris", "Lyon"]),
        { "multipleChoicesQuestion.stem": "must be at most 2000 characters" },
      ],
      ["no question", { correctAnswerIndex: 0 }, { multipleChoicesQuestion: "must be a question with a stem and choices" }],
    ])("%s is refused with a 400 on that field, and nothing is saved", async (_, body, errors) => {
      const result = await add(owner, body);
      expect(result.status).toBe(400);
      expect(result.body.errors).toEqual(errors);
      expect((await list(owner)).body).toEqual([]);
    });

    test("every failing field is named at once", async () => {
      const result = await add(owner, question("", ["Paris", ""], 5));
      expect(Object.keys(result.body.errors).sort()).toEqual([
        "correctAnswerIndex",
        "multipleChoicesQuestion.choices.1",
        "multipleChoicesQuestion.stem",
      ]);
    });

    test("ten choices are allowed, and the last may be the correct one", async () => {
      const choices = Array.from({ length: 10 }, (_, i) => `City ${i}`);
      const result = await add(owner, question("Which one?", choices, 9));
      expect(result.status).toBe(200);
      expect(result.body.correctAnswerIndex).toBe(9);
    });
  });

  describe("editing and deleting", () => {
    test("an edited question replaces the old one, its approval reset; the old one stays with what was asked", async () => {
      const added = (await add(owner, paris)).body;
      expect((await owner.post(`/api/predefined-questions/${added.id}/toggle-approval`)).body.approved).toBe(true);
      const edited = await owner.patch(`/api/predefined-questions/${added.id}`, question("Capital of **France**?", ["Lyon", "Paris"], 1));
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({
        multipleChoicesQuestion: { stem: "Capital of **France**?", choices: ["Lyon", "Paris"] },
        correctAnswerIndex: 1,
        approved: false,
      });
      expect((await list(owner)).body.map((q: { id: number }) => q.id)).toEqual([edited.body.id]);
      // The old question is kept (recall prompts and assessments that asked it still show it), never listed or edited again.
      const old = await inRead(server, function* (s) {
        const { predefinedQuestions: q } = s.t;
        return yield* one(s, s.db.select({ contested: q.contested }).from(q).where(eq(q.id, added.id)));
      });
      expect(old?.contested).toBe(true);
      expect((await owner.patch(`/api/predefined-questions/${added.id}`, paris)).status).toBe(404);
      const invalid = await owner.patch(`/api/predefined-questions/${edited.body.id}`, question(" ", ["Paris"], 3));
      expect(invalid.status).toBe(400);
      expect(Object.keys(invalid.body.errors)).toContain("multipleChoicesQuestion.stem");
    });

    test("a deleted question is no longer listed; readers and strangers may neither edit nor delete", async () => {
      const added = (await add(owner, paris)).body;
      for (const client of [reader, stranger]) {
        expect((await client.patch(`/api/predefined-questions/${added.id}`, paris)).status).toBe(403);
        expect((await client.post(`/api/predefined-questions/${added.id}/delete`)).status).toBe(403);
      }
      expect((await owner.post(`/api/predefined-questions/${added.id}/delete`)).status).toBe(204);
      expect((await list(owner)).body).toEqual([]);
      expect((await owner.post(`/api/predefined-questions/${added.id}/delete`)).status).toBe(404);
    });
  });

  describe("who may", () => {
    test("a reader lists but may not add; a stranger may do neither and never learns the title", async () => {
      expect((await add(owner, paris)).status).toBe(200);
      expect((await list(reader)).status).toBe(200);
      const readerAdd = await add(reader, paris);
      expect(readerAdd.status).toBe(403);
      await add(owner, paris, ids["Secret plans"]);
      for (const result of [await list(stranger, ids["Secret plans"]), await add(stranger, paris, ids["Secret plans"])]) {
        expect(result.status).toBe(403);
        expect(result.text).not.toContain("Secret");
      }
      expect((await list(owner)).body).toHaveLength(1);
    });

    test("signed out is 401 before the body is looked at, for every call", async () => {
      const calls = [
        anonymous.get(`/api/predefined-questions/${ids.France}/note-questions`),
        anonymous.post(`/api/predefined-questions/${ids.France}/note-questions`, { nonsense: true }),
        anonymous.post(`/api/predefined-questions/${ids.France}/refine-question`, "not a question"),
        anonymous.post(`/api/predefined-questions/generate-question-without-save?note=abc`),
        anonymous.post(`/api/predefined-questions/1/toggle-approval`),
        anonymous.post(`/api/predefined-questions/1/suggest-fine-tuning`, { isPositiveFeedback: "maybe" }),
        anonymous.get(`/api/predefined-questions/notebook/1/questions`),
        anonymous.patch(`/api/predefined-questions/1`, "not a question"),
        anonymous.post(`/api/predefined-questions/1/delete`),
      ];
      for (const result of await Promise.all(calls)) expect(result.status).toBe(401);
    });

    test("an unknown note or question is 404; a malformed id is 400", async () => {
      expect((await list(owner, 999999)).status).toBe(404);
      expect((await add(owner, paris, 999999)).status).toBe(404);
      expect((await owner.post("/api/predefined-questions/999999/toggle-approval")).status).toBe(404);
      expect((await owner.post("/api/predefined-questions/999999/suggest-fine-tuning", { isPositiveFeedback: true })).status).toBe(404);
      expect((await owner.get("/api/predefined-questions/01/note-questions")).status).toBe(400);
    });
  });

  describe("with the AI", () => {
    test("Refine sends the draft and the note's description to questionGenerationModel and answers the improved question, unsaved", async () => {
      const admin = await server.client().loginAs("admin");
      await admin.post("/api/settings/current-model-version", {
        questionGenerationModel: "gpt-4o",
        evaluationModel: "gpt-4.1-mini",
        othersModel: "gpt-4o-mini",
      });
      fake.chat.respondWithJson(mcq("Which city is the capital of France?", ["Paris", "Lyon", "Nice"], 0), {
        match: { schemaName: REFINE },
      });
      const result = await owner.post(
        `/api/predefined-questions/${ids.France}/refine-question`,
        question("capital of france", ["paris", ""], 0),
      );
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        id: 0,
        multipleChoicesQuestion: { stem: "Which city is the capital of France?", choices: ["Paris", "Lyon", "Nice"] },
        correctAnswerIndex: 0,
        approved: false,
      });
      const [request] = fake.chat.requests;
      expect(fake.chat.requests).toHaveLength(1);
      expect(request!.model).toBe("gpt-4o");
      expect(request!.response_format).toMatchObject({ type: "json_schema", json_schema: { name: REFINE, strict: true } });
      expect(request!.messages.map((m) => m.role)).toEqual(["system", "system", "user"]);
      expect(messageText(request!.messages[1]!)).toStartWith("The note of current focus (in JSON format):");
      expect(messageText(request!.messages[1]!)).toContain("Its capital is Paris.");
      expect(messageText(request!.messages[2]!)).toContain('{"stem":"capital of france","choices":["paris",""]}');
      expect((await list(owner)).body).toEqual([]);
    });

    test("Refine needs something to refine (400) and an editor (403)", async () => {
      const empty = await owner.post(`/api/predefined-questions/${ids.France}/refine-question`, question(" ", ["", ""]));
      expect(empty.status).toBe(400);
      expect(empty.body.errors).toEqual({ multipleChoicesQuestion: "must have a stem or a choice to refine" });
      expect((await reader.post(`/api/predefined-questions/${ids.France}/refine-question`, paris)).status).toBe(403);
      expect(fake.chat.requests).toHaveLength(0);
    });

    test("a refinement with one choice or an index out of range still fills the form (two choices, index in range)", async () => {
      fake.chat.respondWithJson(mcq("Capital of France?", ["Paris"], 4), { match: { schemaName: REFINE } });
      const result = await owner.post(`/api/predefined-questions/${ids.France}/refine-question`, paris);
      expect(result.body).toMatchObject({
        multipleChoicesQuestion: { stem: "Capital of France?", choices: ["Paris", ""] },
        correctAnswerIndex: 0,
      });
      fake.chat.respondWithText("no idea");
      const nothing = await owner.post(`/api/predefined-questions/${ids.France}/refine-question`, paris);
      expect([nothing.status, nothing.text]).toEqual([200, ""]);
    });

    test("Generate by AI asks for a question from the note's graph and answers it shuffled, unsaved", async () => {
      await owner.post("/api/testability/randomizer", { choose: "last" });
      scriptQuestion(fake, capital);
      const result = await owner.post(`/api/predefined-questions/generate-question-without-save?note=${ids.France}`);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        id: 0,
        multipleChoicesQuestion: { stem: "What is the capital of France?", choices: ["Nice", "Lyon", "Paris"] },
        correctAnswerIndex: 2,
        approved: false,
      });
      const [request] = fake.chat.requests;
      expect(request!.response_format).toMatchObject({ json_schema: { name: QUESTION } });
      expect(messageText(request!.messages[0]!)).toStartWith("Focus Note and the notes related to it:");
      expect((await list(owner)).body).toEqual([]);
    });

    test("Generate by AI answers an empty body when the model has no usable question, and needs an editor", async () => {
      scriptQuestion(fake, mcq("", ["Paris", "Lyon"]));
      const result = await owner.post(`/api/predefined-questions/generate-question-without-save?note=${ids.France}`);
      expect([result.status, result.text]).toEqual([200, ""]);
      const refused = await stranger.post(`/api/predefined-questions/generate-question-without-save?note=${ids["Secret plans"]}`);
      expect(refused.status).toBe(403);
      expect(refused.text).not.toContain("Secret");
      expect((await owner.post("/api/predefined-questions/generate-question-without-save")).status).toBe(400);
    });

    test("a provider failure is a 503 with a message, not a 500", async () => {
      fake.chat.failWith(500, "The server had an error");
      const result = await owner.post(`/api/predefined-questions/${ids.France}/refine-question`, paris);
      expect(result.status).toBe(503);
      expect(result.body.message).toBe("The AI service did not answer. Please try again later.");
    });
  });

  describe("approval", () => {
    test("the notebook's editor toggles a question's approval; readers and strangers may not", async () => {
      const id = (await add(owner, paris)).body.id;
      const approved = await owner.post(`/api/predefined-questions/${id}/toggle-approval`);
      expect(approved.status).toBe(200);
      expect(approved.body).toMatchObject({ id, approved: true });
      expect((await list(reader)).body[0].approved).toBe(true);
      expect((await reader.post(`/api/predefined-questions/${id}/toggle-approval`)).status).toBe(403);
      expect((await owner.post(`/api/predefined-questions/${id}/toggle-approval`)).body.approved).toBe(false);
      const secret = (await add(owner, paris, ids["Secret plans"])).body.id;
      const refused = await stranger.post(`/api/predefined-questions/${secret}/toggle-approval`);
      expect(refused.status).toBe(403);
      expect(refused.text).not.toContain("Secret");
    });

    test("Notebook Questions lists every question of the notebook grouped by note, for its editors", async () => {
      await add(owner, question("Capital of Spain?", ["Madrid", "Rome"]), ids.Spain);
      await add(owner, paris);
      await add(owner, question("Where is Lyon?", ["France", "Spain"]));
      await add(owner, paris, ids["Secret plans"]);
      const notebookId = (await owner.get(`/api/notes/${ids.France}`)).body.notebook.id;
      const result = await owner.get(`/api/predefined-questions/notebook/${notebookId}/questions`);
      expect(result.status).toBe(200);
      expect(
        result.body.map((g: { note: { title: string }; questions: { multipleChoicesQuestion: { stem: string } }[] }) => [
          g.note.title,
          g.questions.map((q: { multipleChoicesQuestion: { stem: string } }) => q.multipleChoicesQuestion.stem),
        ]),
      ).toEqual([
        ["France", ["What is the capital of France?", "Where is Lyon?"]],
        ["Spain", ["Capital of Spain?"]],
      ]);
      expect((await reader.get(`/api/predefined-questions/notebook/${notebookId}/questions`)).status).toBe(403);
    });
  });

  describe("suggest for fine-tuning", () => {
    const rows = () => inRead(server, (s) => all(s, s.db.select().from(s.t.suggestedQuestionsForFineTuning)));

    /** The reader answered the question in recall (so was shown its answer): a tracker and an answered prompt. */
    const answeredInRecall = async (questionId: number) => {
      const userId = (await reader.get("/api/user/current-user-info")).body.user.id;
      const now = new Date();
      await inWrite(server, function* (s) {
        const [tracker] = yield* all(
          s,
          s.db
            .insert(s.t.memoryTrackers)
            .values({
              userId,
              noteId: ids.France!,
              lastRecalledAt: now,
              nextRecallAt: now,
              assimilatedAt: now,
              repetitionCount: 0,
              forgettingCurveIndex: 100,
              removedFromTracking: false,
              spelling: false,
            })
            .returning({ id: s.t.memoryTrackers.id }),
        );
        yield* run(
          s,
          s.db.insert(s.t.recallPrompts).values({
            userId,
            memoryTrackerId: tracker!.id,
            predefinedQuestionId: questionId,
            answerChoiceIndex: 0,
            answerCorrect: false,
            answeredAt: now,
            createdAt: now,
          }),
        );
      });
    };

    test("a reader who has not answered the question in recall may not suggest it (its answer carries the key)", async () => {
      const id = (await add(owner, question("Capital?", ["Lyon", "Paris"], 1))).body.id;
      const refused = await reader.post(`/api/predefined-questions/${id}/suggest-fine-tuning`, { isPositiveFeedback: true });
      expect(refused.status).toBe(403);
      expect(await rows()).toEqual([]);
    });

    test("a reader's positive feedback keeps the note, the question and its correct index", async () => {
      const id = (await add(owner, question("Capital?", ["Lyon", "Paris"], 1))).body.id;
      await answeredInRecall(id);
      const result = await reader.post(`/api/predefined-questions/${id}/suggest-fine-tuning`, {
        isPositiveFeedback: true,
        comment: " Clear question ",
      });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        id: expect.any(Number),
        comment: "Clear question",
        preservedQuestion: {
          multipleChoicesQuestion: { stem: "Capital?", choices: ["Lyon", "Paris"] },
          correctChoiceIndex: 1,
          strictChoiceOrder: false,
        },
        preservedNoteContent: expect.stringContaining("Its capital is Paris."),
        realCorrectAnswers: "1",
        createdAt: expect.any(String),
        positiveFeedback: true,
      });
      const [row] = await rows();
      expect(row).toMatchObject({ positiveFeedback: true, comment: "Clear question", realCorrectAnswers: "1" });
      const readerId = (await reader.get("/api/user/current-user-info")).body.user.id;
      expect(row!.userId).toBe(readerId);
    });

    test("negative feedback leaves the real correct answers for the admin; the note's later edits do not change it", async () => {
      const id = (await add(owner, paris)).body.id;
      const result = await owner.post(`/api/predefined-questions/${id}/suggest-fine-tuning`, {
        isPositiveFeedback: false,
        comment: "Lyon is not a capital",
      });
      expect(result.body).toMatchObject({ positiveFeedback: false, realCorrectAnswers: "", comment: "Lyon is not a capital" });
      expect((await owner.patch(`/api/text_content/${ids.France}/details`, { details: "Changed." })).status).toBe(200);
      const [row] = await inRead(server, function* (s) {
        const { suggestedQuestionsForFineTuning: f } = s.t;
        return yield* all(s, s.db.select().from(f).where(eq(f.id, result.body.id)));
      });
      expect(row!.preservedNoteContent).toContain("Its capital is Paris.");
    });

    test("the feedback flag is required, the comment limited, and a stranger refused", async () => {
      const id = (await add(owner, paris)).body.id;
      expect((await reader.post(`/api/predefined-questions/${id}/suggest-fine-tuning`, { comment: "hm" })).body.errors).toHaveProperty(
        "isPositiveFeedback",
      );
      const long = await reader.post(`/api/predefined-questions/${id}/suggest-fine-tuning`, {
        isPositiveFeedback: false,
        comment: "x".repeat(2001),
      });
      expect(long.status).toBe(400);
      expect(long.body.errors).toHaveProperty("comment");
      const secret = (await add(owner, paris, ids["Secret plans"])).body.id;
      expect((await stranger.post(`/api/predefined-questions/${secret}/suggest-fine-tuning`, { isPositiveFeedback: true })).status).toBe(
        403,
      );
      expect(await rows()).toHaveLength(0);
    });
  });
});

describe("predefined questions without an AI provider", () => {
  const server = useTestServer();

  test('Refine and Generate by AI answer 503 "AI is not configured"; adding and listing work', async () => {
    const ids = await injectNotes(
      server.client(),
      [{ Title: "Countries" }, { Title: "France", "Parent Title": "Countries" }],
      "old_learner",
    );
    const owner = await server.client().loginAs("old_learner");
    for (const result of [
      await owner.post(`/api/predefined-questions/${ids.France}/refine-question`, paris),
      await owner.post(`/api/predefined-questions/generate-question-without-save?note=${ids.France}`),
    ]) {
      expect(result.status).toBe(503);
      expect(result.body.message).toBe("AI is not configured");
    }
    expect((await owner.post(`/api/predefined-questions/${ids.France}/note-questions`, paris)).status).toBe(200);
    expect((await owner.get(`/api/predefined-questions/${ids.France}/note-questions`)).body).toHaveLength(1);
  });
});
