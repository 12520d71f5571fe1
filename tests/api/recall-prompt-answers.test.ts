import { describe, expect, test } from "bun:test";
import { dayHour, travelTo } from "../support/learning";
import {
  capital,
  LEGITIMATE,
  mcq,
  messageText,
  QUESTION,
  scriptEvaluation,
  scriptGoodQuestion,
  scriptQuestion,
  useRecallPromptWorld,
} from "../support/recall-prompts";

/** A chat completion whose message is `value` as JSON, as a route of the fake answers it. */
function chatCompletion(value: unknown): Response {
  return Response.json({
    id: "chatcmpl-held",
    object: "chat.completion",
    created: 0,
    model: "gpt-4o-mini",
    choices: [
      { index: 0, message: { role: "assistant", content: JSON.stringify(value), refusal: null }, finish_reason: "stop", logprobs: null },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

describe("answering, contesting and regenerating recall prompts", () => {
  const w = useRecallPromptWorld();

  test("a right answer repeats the tracker successfully: the index goes up and the repetition counts", async () => {
    scriptGoodQuestion(w.fake);
    const prompt = (await w.ask()).body;
    const result = await w.learner.post(`/api/recall-prompts/${prompt.id}/answer`, { choiceIndex: 0 });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      note: expect.objectContaining({ id: w.ids.France, noteTopology: expect.objectContaining({ titleOrPredicate: "France" }) }),
      predefinedQuestion: {
        id: expect.any(Number),
        multipleChoicesQuestion: capital.multipleChoicesQuestion,
        correctAnswerIndex: 0,
        approved: false,
      },
      answer: { id: prompt.id, choiceIndex: 0, correct: true },
      answerDisplay: "Paris",
      recallPromptId: prompt.id,
    });
    expect(result.body.note.noteTopology.parentOrSubjectNoteTopology.titleOrPredicate).toBe("Countries");
    expect(await w.tracker()).toMatchObject({ forgettingCurveIndex: 110, repetitionCount: 1, lastRecalledAt: dayHour(0, 8) });
  });

  test("a wrong answer repeats the tracker as failed: the index goes down and it is asked again in 12 hours", async () => {
    scriptGoodQuestion(w.fake);
    await w.learner.post(`/api/recall-prompts/${(await w.ask()).body.id}/answer`, { choiceIndex: 0 });
    await travelTo(w.learner, 2, 8);
    scriptGoodQuestion(w.fake);
    const prompt = (await w.ask()).body;
    const result = await w.learner.post(`/api/recall-prompts/${prompt.id}/answer`, { choiceIndex: 1 });
    expect(result.body.answer).toEqual({ id: prompt.id, choiceIndex: 1, correct: false });
    expect(result.body.answerDisplay).toBe("Lyon");
    expect(await w.tracker()).toMatchObject({
      forgettingCurveIndex: 100,
      repetitionCount: 2,
      lastRecalledAt: dayHour(0, 8),
      nextRecallAt: dayHour(2, 20),
    });
  });

  test("answering twice is refused and counts once", async () => {
    scriptGoodQuestion(w.fake);
    const prompt = (await w.ask()).body;
    await w.learner.post(`/api/recall-prompts/${prompt.id}/answer`, { choiceIndex: 0 });
    const again = await w.learner.post(`/api/recall-prompts/${prompt.id}/answer`, { choiceIndex: 0 });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe("The question is already answered");
    expect((await w.tracker()).repetitionCount).toBe(1);
  });

  test("a choice index outside the choices is refused on the field, and nothing changes", async () => {
    scriptGoodQuestion(w.fake);
    const prompt = (await w.ask()).body;
    for (const choiceIndex of [3, -1, 1.5, "zero"]) {
      const result = await w.learner.post(`/api/recall-prompts/${prompt.id}/answer`, { choiceIndex });
      expect(result.status).toBe(400);
      expect(result.body.errors.choiceIndex).toStartWith("must be the index of one of the choices");
    }
    expect((await w.tracker()).repetitionCount).toBe(0);
    expect((await w.learner.post(`/api/recall-prompts/${prompt.id}/answer`, { choiceIndex: 2 })).status).toBe(200);
  });

  test("an answer to a prompt whose tracker was removed from tracking changes no tracker", async () => {
    scriptGoodQuestion(w.fake);
    const prompt = (await w.ask()).body;
    await w.learner.post(`/api/memory-trackers/${w.trackerId}/remove`);
    expect((await w.learner.post(`/api/recall-prompts/${prompt.id}/answer`, { choiceIndex: 0 })).status).toBe(200);
    expect((await w.tracker()).repetitionCount).toBe(0);
  });

  test("GET /recall-prompts/{id}: an empty body until answered, then the answered question", async () => {
    scriptGoodQuestion(w.fake);
    const prompt = (await w.ask()).body;
    const before = await w.learner.get(`/api/recall-prompts/${prompt.id}`);
    expect([before.status, before.text]).toEqual([200, ""]);
    await w.learner.post(`/api/recall-prompts/${prompt.id}/answer`, { choiceIndex: 1 });
    const after = (await w.learner.get(`/api/recall-prompts/${prompt.id}`)).body;
    expect(after).toMatchObject({ recallPromptId: prompt.id, answer: { choiceIndex: 1, correct: false }, answerDisplay: "Lyon" });
  });

  test("a contest the evaluation rejects keeps the question, which is asked again", async () => {
    scriptGoodQuestion(w.fake);
    const prompt = (await w.ask()).body;
    scriptEvaluation(w.fake, true, [0]);
    const result = await w.learner.post(`/api/recall-prompts/${prompt.id}/contest`);
    expect(result.body).toEqual({ rejected: true, advice: LEGITIMATE });
    expect((await w.ask()).body.id).toBe(prompt.id);
  });

  test("an accepted contest marks the question contested: it is not asked again", async () => {
    scriptGoodQuestion(w.fake);
    const prompt = (await w.ask()).body;
    scriptEvaluation(w.fake, false, [0, 1], "Lyon was a capital too.");
    const result = await w.learner.post(`/api/recall-prompts/${prompt.id}/contest`);
    expect(result.body.rejected).toBe(false);
    expect(result.body.advice).toContain('shows that 0 ("Paris"), 1 ("Lyon") are correct to the question.');
    expect(result.body.advice).toEndWith("Lyon was a capital too.");
    scriptGoodQuestion(w.fake, mcq("Which river flows through Paris?", ["Seine", "Thames"], 0));
    const next = (await w.ask()).body;
    expect(next.id).not.toBe(prompt.id);
    expect(next.multipleChoicesQuestion.stem).toBe("Which river flows through Paris?");
  });

  test("regenerate asks a new question made from the contested one and the advice, in a new prompt", async () => {
    scriptGoodQuestion(w.fake);
    const prompt = (await w.ask()).body;
    scriptEvaluation(w.fake, false, [0], "Too easy.");
    const contest = (await w.learner.post(`/api/recall-prompts/${prompt.id}/contest`)).body;
    scriptQuestion(w.fake, mcq("Which city hosts the Louvre?", ["Paris", "Lyon"], 0));
    const regenerated = await w.learner.post(`/api/recall-prompts/${prompt.id}/regenerate`, contest);
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.id).not.toBe(prompt.id);
    expect(regenerated.body.multipleChoicesQuestion).toEqual({ stem: "Which city hosts the Louvre?", choices: ["Paris", "Lyon"] });
    const request = w.fake.chat.requests.at(-1)!;
    expect(request.response_format).toMatchObject({ json_schema: { name: QUESTION } });
    expect(messageText(request.messages.at(-1)!)).toContain("Improvement advice:\nToo easy.");
    expect((await w.ask()).body.id).toBe(regenerated.body.id);
    const answered = await w.learner.post(`/api/recall-prompts/${regenerated.body.id}/answer`, { choiceIndex: 0 });
    expect(answered.body.answer.correct).toBe(true);
    expect((await w.tracker()).repetitionCount).toBe(1);
  });

  test("two regenerations of one prompt at once give one new prompt, answered to both", async () => {
    scriptGoodQuestion(w.fake);
    const prompt = (await w.ask()).body;
    // The model answers once both requests have asked it: each read the prompt before either saved.
    const bothAsked = Promise.withResolvers<void>();
    let asked = 0;
    w.fake.on("POST", "/chat/completions", async () => {
      if (++asked === 2) bothAsked.resolve();
      await bothAsked.promise;
      return chatCompletion(mcq("Which city hosts the Louvre?", ["Paris", "Lyon"], 0));
    });
    const regenerate = () => w.learner.post(`/api/recall-prompts/${prompt.id}/regenerate`, { advice: "Harder" });
    const [a, b] = await Promise.all([regenerate(), regenerate()]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.id).not.toBe(prompt.id);
    expect(b.body.id).toBe(a.body.id);
    expect((await w.ask()).body.id).toBe(a.body.id);
  });

  test("regenerate answers an empty body when the model gives no usable question", async () => {
    scriptGoodQuestion(w.fake);
    const prompt = (await w.ask()).body;
    scriptQuestion(w.fake, mcq("", ["a", "b"]));
    const result = await w.learner.post(`/api/recall-prompts/${prompt.id}/regenerate`, { advice: "Better", rejected: false });
    expect([result.status, result.text]).toEqual([200, ""]);
  });

  test("contest and regenerate say so when the AI fails; an answered prompt cannot be contested", async () => {
    scriptGoodQuestion(w.fake);
    const prompt = (await w.ask()).body;
    w.fake.chat.failWith(500, "boom");
    const failed = await w.learner.post(`/api/recall-prompts/${prompt.id}/contest`);
    expect(failed.status).toBe(503);
    expect(failed.body.message).toBe("The AI service did not answer. Please try again later.");
    await w.learner.post(`/api/recall-prompts/${prompt.id}/answer`, { choiceIndex: 0 });
    expect((await w.learner.post(`/api/recall-prompts/${prompt.id}/contest`)).body.message).toBe("The question is already answered");
  });
});
