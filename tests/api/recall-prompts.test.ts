import { describe, expect, test } from "bun:test";
import { setAiRequestTimeout } from "../../src/ai/structured-output";
import { assimilate } from "../support/learning";
import { injectNotes } from "../support/notes";
import {
  capital,
  EVALUATION,
  mcq,
  messageText,
  QUESTION,
  scriptEvaluation,
  scriptGoodQuestion,
  scriptQuestion,
  useRecallPromptWorld,
} from "../support/recall-prompts";
import { useTestServer } from "../support/server";

describe("recall prompts: multiple-choice questions for memory trackers", () => {
  const w = useRecallPromptWorld();

  test("a question is generated from the note and its related notes, checked, and asked without its answer", async () => {
    scriptGoodQuestion(w.fake);
    const result = await w.ask();
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      id: expect.any(Number),
      multipleChoicesQuestion: { stem: "What is the capital of France?", choices: ["Paris", "Lyon", "Nice"] },
      notebook: expect.objectContaining({ headNoteId: w.ids.Countries, title: "Countries" }),
    });
    const [generation, evaluation] = w.fake.chat.requests;
    expect(w.fake.chat.requests).toHaveLength(2);
    expect(generation!.response_format).toMatchObject({ type: "json_schema", json_schema: { name: QUESTION, strict: true } });
    const context = messageText(generation!.messages[0]!);
    expect(generation!.messages[0]!.role).toBe("system");
    expect(context).toStartWith("Focus Note and the notes related to it:");
    expect(context).toContain("Its capital is Paris.");
    expect(context).toContain("Countries");
    expect(context).toContain("Spain");
    expect(evaluation!.response_format).toMatchObject({ json_schema: { name: EVALUATION } });
    // The evaluator is shown the question but not its answer.
    const evaluationPrompt = messageText(evaluation!.messages.at(-1)!);
    expect(evaluationPrompt).toContain('{"stem":"What is the capital of France?","choices":["Paris","Lyon","Nice"]}');
    expect(evaluationPrompt).not.toContain("correctChoiceIndex");
  });

  test("generation uses questionGenerationModel and the check evaluationModel (docs/decisions.md, decision 14)", async () => {
    const admin = await w.server.client().loginAs("admin");
    await admin.post("/api/settings/current-model-version", {
      questionGenerationModel: "gpt-4o",
      evaluationModel: "gpt-4.1-mini",
      othersModel: "gpt-4o-mini",
    });
    scriptGoodQuestion(w.fake);
    await w.ask();
    expect(w.fake.chat.requests.map((r) => r.model)).toEqual(["gpt-4o", "gpt-4.1-mini"]);
  });

  test("with the randomizer 'last' the choices are reversed and the correct index follows its choice", async () => {
    await w.learner.post("/api/testability/randomizer", { choose: "last" });
    scriptGoodQuestion(w.fake);
    const prompt = (await w.ask()).body;
    expect(prompt.multipleChoicesQuestion.choices).toEqual(["Nice", "Lyon", "Paris"]);
    const answered = await w.learner.post(`/api/recall-prompts/${prompt.id}/answer`, { choiceIndex: 2 });
    expect(answered.body.answer.correct).toBe(true);
    expect(answered.body.predefinedQuestion.correctAnswerIndex).toBe(2);
  });

  test("a strict choice order is never shuffled", async () => {
    await w.learner.post("/api/testability/randomizer", { choose: "last" });
    scriptGoodQuestion(w.fake, mcq("Which is true?", ["Paris is in France", "Lyon is in Spain", "None of the above"], 0, true));
    expect((await w.ask()).body.multipleChoicesQuestion.choices).toEqual(["Paris is in France", "Lyon is in Spain", "None of the above"]);
  });

  test.each([
    ["an empty stem", mcq("", ["Paris", "Lyon"])],
    ["one choice", mcq("Capital?", ["Paris"])],
    ["a blank choice", mcq("Capital?", ["Paris", " "])],
    [
      "eleven choices",
      mcq(
        "Capital?",
        Array.from({ length: 11 }, (_, i) => `City ${i}`),
      ),
    ],
    ["a correct index out of range", mcq("Capital?", ["Paris", "Lyon"], 2)],
    ["something else", { answer: "Paris" }],
  ])("a generated question with %s gives an empty body (the simple review), and nothing is saved", async (_, value) => {
    scriptQuestion(w.fake, value);
    const result = await w.ask();
    expect(result.status).toBe(200);
    expect(result.text).toBe("");
    expect(w.fake.chat.requests).toHaveLength(1); // no check of an unusable question
    scriptGoodQuestion(w.fake);
    expect((await w.ask()).body.multipleChoicesQuestion.stem).toBe("What is the capital of France?");
  });

  test("an answer that is not JSON, a refusal, or an empty body gives an empty body", async () => {
    w.fake.chat.respondWithText("Paris, obviously");
    expect((await w.ask()).text).toBe("");
    w.fake.chat.respondWithRefusal("I cannot help with that.");
    expect((await w.ask()).text).toBe("");
    w.fake.chat.respondWithRaw("");
    const result = await w.ask();
    expect([result.status, result.text]).toEqual([200, ""]);
  });

  test("a provider error or a timeout gives an empty body, not an error", async () => {
    w.fake.chat.failWith(500, "The server had an error while processing your request.");
    expect([(await w.ask()).status, (await w.ask()).text]).toEqual([200, ""]);

    w.fake.reset();
    w.fake.chat.failWith(401, "Incorrect API key provided");
    const unauthorized = await w.ask();
    expect([unauthorized.status, unauthorized.text]).toEqual([200, ""]);

    w.fake.reset();
    setAiRequestTimeout(w.server.ctx, 200);
    w.fake.chat.respondWithJson(capital, { match: { schemaName: QUESTION }, delayMs: 2_000 });
    const started = Date.now();
    const timedOut = await w.ask();
    expect([timedOut.status, timedOut.text]).toEqual([200, ""]);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  test("a failing automatic check gives an empty body", async () => {
    scriptQuestion(w.fake, capital);
    w.fake.chat.failWith(503, "The engine is currently overloaded.", { match: { schemaName: EVALUATION } });
    expect((await w.ask()).text).toBe("");
  });

  test("an unanswered, uncontested prompt is asked again for the same tracker; a new one once it is answered", async () => {
    scriptGoodQuestion(w.fake);
    const first = (await w.ask()).body;
    const again = (await w.ask()).body;
    expect(again).toEqual(first);
    expect(w.fake.chat.requests).toHaveLength(2);

    await w.learner.post(`/api/recall-prompts/${first.id}/answer`, { choiceIndex: 0 });
    scriptGoodQuestion(w.fake, mcq("Which city is the French capital?", ["Lyon", "Paris"], 1));
    const next = (await w.ask()).body;
    expect(next.id).not.toBe(first.id);
    expect(next.multipleChoicesQuestion.stem).toBe("Which city is the French capital?");
  });

  test("two requests at the same time end with one prompt", async () => {
    w.fake.chat.setDefault((body) =>
      body.response_format?.type === "json_schema" && body.response_format.json_schema.name === EVALUATION
        ? { kind: "json", value: { correctChoices: [0], feasibleQuestion: true, improvementAdvices: "" } }
        : { kind: "json", value: capital },
    );
    const [a, b] = await Promise.all([w.ask(), w.ask()]);
    expect(a.body.id).toBe(b.body.id);
    expect((await w.ask()).body.id).toBe(a.body.id);
  });

  test("a question the check finds not feasible is regenerated once with the advice, and the new one is asked", async () => {
    scriptQuestion(w.fake, capital);
    scriptEvaluation(w.fake, false, [0], "Ask about Paris without naming France.");
    scriptQuestion(w.fake, mcq("Which city is on the Seine?", ["Paris", "Madrid"], 0));
    const prompt = (await w.ask()).body;
    expect(prompt.multipleChoicesQuestion.stem).toBe("Which city is on the Seine?");
    expect(w.fake.chat.requests).toHaveLength(3); // the improvement is not checked again
    const regeneration = messageText(w.fake.chat.requests[2]!.messages.at(-1)!);
    expect(regeneration).toContain("Previously generated non-feasible question:");
    expect(regeneration).toContain("What is the capital of France?");
    expect(regeneration).toContain("Improvement advice:\nAsk about Paris without naming France.");
  });

  test("when the improvement fails, the original question is asked", async () => {
    scriptQuestion(w.fake, capital);
    scriptEvaluation(w.fake, false, [0, 1], "Lyon is not a capital.");
    scriptQuestion(w.fake, mcq("", []));
    expect((await w.ask()).body.multipleChoicesQuestion.stem).toBe("What is the capital of France?");
  });

  test("a spelling tracker gets no multiple-choice question", async () => {
    await w.learner.post(`/api/notes/${w.ids.Spain}/review-setting`, { rememberSpelling: true });
    const trackers = await assimilate(w.learner, w.ids.Spain!);
    const spelling = trackers.find((t) => t.spelling)!;
    const result = await w.ask(w.learner, spelling.id);
    expect([result.status, result.text]).toEqual([200, ""]);
    expect(w.fake.chat.requests).toHaveLength(0);
  });

  test("prompts and trackers belong to one w.learner: others get 403, unknown ones 404, nobody 401", async () => {
    scriptGoodQuestion(w.fake);
    const prompt = (await w.ask()).body;
    const other = await w.server.client().loginAs("another_old_learner");
    expect((await w.ask(other)).status).toBe(403);
    expect((await other.get(`/api/recall-prompts/${prompt.id}`)).status).toBe(403);
    expect((await other.post(`/api/recall-prompts/${prompt.id}/answer`, { choiceIndex: 0 })).status).toBe(403);
    expect((await other.post(`/api/recall-prompts/${prompt.id}/contest`)).status).toBe(403);
    expect((await other.post(`/api/recall-prompts/${prompt.id}/regenerate`, { advice: "x" })).status).toBe(403);
    expect((await w.ask(w.learner, 99_999)).status).toBe(404);
    expect((await w.learner.post("/api/recall-prompts/99999/answer", { choiceIndex: 0 })).status).toBe(404);
    expect((await w.learner.get("/api/recall-prompts/99999")).status).toBe(404);
    expect((await w.ask(w.server.client())).status).toBe(401);
    expect((await w.tracker()).repetitionCount).toBe(0);
    expect(w.fake.chat.requests).toHaveLength(2);
  });
});

describe("recall prompts without an AI provider", () => {
  const server = useTestServer({}, { resetBeforeEach: false });

  test("the question is an empty body, so the client shows the simple review", async () => {
    const anonymous = server.client();
    await anonymous.post("/api/testability/clean_db_and_reset_testability_settings");
    const learner = await server.client().loginAs("old_learner");
    const ids = await injectNotes(learner, [{ Title: "France" }]);
    const id = (await assimilate(learner, ids.France!))[0]!.id;
    const result = await learner.get(`/api/recall-prompts/${id}/question`);
    expect([result.status, result.text]).toEqual([200, ""]);
  });
});
