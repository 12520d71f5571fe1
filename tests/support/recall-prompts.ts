import { afterAll, afterEach, beforeAll, beforeEach } from "bun:test";
import { setAiRequestTimeout } from "../../src/ai/structured-output";
import type { MemoryTrackerJson } from "../../src/services/memory/trackers";
import { type FakeOpenAI, startFakeOpenAI } from "../fakes";
import { assimilate, travelTo } from "./learning";
import { injectNotes } from "./notes";
import { type HttpClient, type HttpResult, startTestServer, type TestServer } from "./server";

export const QUESTION = "ask_single_answer_multiple_choice_question";
export const EVALUATION = "evaluate_question";
export const LEGITIMATE = "This seems to be a legitimate question. Please answer it.";

export const mcq = (stem: string, choices: string[], correctChoiceIndex = 0, strictChoiceOrder = false) => ({
  multipleChoicesQuestion: { stem, choices },
  correctChoiceIndex,
  strictChoiceOrder,
});
export const capital = mcq("What is the capital of France?", ["Paris", "Lyon", "Nice"], 0);

export function scriptQuestion(fake: FakeOpenAI, value: unknown) {
  fake.chat.respondWithJson(value, { match: { schemaName: QUESTION } });
}
export function scriptEvaluation(fake: FakeOpenAI, feasibleQuestion: boolean, correctChoices: number[], improvementAdvices = "") {
  fake.chat.respondWithJson({ correctChoices, feasibleQuestion, improvementAdvices }, { match: { schemaName: EVALUATION } });
}
/** A question that passes the automatic check. */
export function scriptGoodQuestion(fake: FakeOpenAI, value = capital) {
  scriptQuestion(fake, value);
  scriptEvaluation(fake, true, [value.correctChoiceIndex]);
}

export const messageText = (message: { content?: unknown }) => String(message.content);

export interface RecallPromptWorld {
  server: TestServer;
  fake: FakeOpenAI;
  learner: HttpClient;
  /** Note ids by title: Countries > France, Spain. */
  ids: Record<string, number>;
  /** old_learner's tracker of France, assimilated on day 0 at 08:00. */
  trackerId: number;
  /** GET /recall-prompts/{tracker}/question. */
  ask(client?: HttpClient, trackerId?: number): Promise<HttpResult>;
  /** The tracker's MemoryTracker JSON. */
  tracker(): Promise<MemoryTrackerJson>;
}

/**
 * Registers the hooks of a recall-prompt test file: a server with an API key pointed at a fake
 * OpenAI, and before each test a clean database, old_learner signed in on day 0 at 08:00 with
 * the notes Countries > France, Spain, and France assimilated.
 */
export function useRecallPromptWorld(): RecallPromptWorld {
  const world = {
    ask(client?: HttpClient, trackerId?: number) {
      return (client ?? world.learner).get(`/api/recall-prompts/${trackerId ?? world.trackerId}/question`);
    },
    async tracker() {
      return (await world.learner.get(`/api/memory-trackers/${world.trackerId}`)).body;
    },
  } as RecallPromptWorld;
  beforeAll(async () => {
    world.fake = await startFakeOpenAI();
    world.server = await startTestServer({ OPENAI_API_KEY: "test-key" });
  });
  afterAll(async () => {
    await world.server.stop();
    await world.fake.stop();
  });
  beforeEach(async () => {
    world.fake.reset();
    const anonymous = world.server.client();
    await anonymous.post("/api/testability/clean_db_and_reset_testability_settings");
    await anonymous.post("/api/testability/replace_service_url", { openAi: world.fake.url });
    world.learner = await world.server.client().loginAs("old_learner");
    await travelTo(world.learner, 0, 8);
    world.ids = await injectNotes(world.learner, [
      { Title: "Countries" },
      { Title: "France", "Parent Title": "Countries", Details: "Its capital is Paris." },
      { Title: "Spain", "Parent Title": "Countries", Details: "Its capital is Madrid." },
    ]);
    world.trackerId = (await assimilate(world.learner, world.ids.France!))[0]!.id;
  });
  afterEach(() => setAiRequestTimeout(world.server.ctx, undefined));
  return world;
}
