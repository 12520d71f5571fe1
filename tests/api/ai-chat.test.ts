/**
 * Chat with the AI over real HTTP against the fake OpenAI server (docs/decisions.md, decision 12): the
 * server-sent event sequence of a plain reply, of a tool-call run through submit-tool-results and
 * its streamed continuation, of a cancel and of a provider failure; what the model is sent; what
 * is saved; and refusals for strangers and signed-out callers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { one, run } from "../../src/store/session";
import { startFakeOpenAI } from "../fakes";
import { injectNotes } from "../support/notes";
import { type HttpClient, type Json, startTestServer, type TestServer, useTestServerWithFakeOpenAI } from "../support/server";
import { streamText } from "../support/sse";
import { inWrite, sqlRows, sqlRun } from "../support/test-database";

interface SseEvent {
  event: string;
  data: Json;
}

/** Parses a whole SSE body: `event:` and `data:` lines, events split on blank lines, data JSON when it parses. */
function parseSse(text: string): SseEvent[] {
  return text
    .split(/\n\n/)
    .filter((block) => block.trim())
    .map((block) => {
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      const raw = data.join("\n");
      try {
        return { event, data: JSON.parse(raw) };
      } catch {
        return { event, data: raw };
      }
    });
}

const names = (events: SseEvent[]) => events.map((e) => e.event);
/** The reply text as the reference's client builds it from the events. */
const replyText = (events: SseEvent[]) =>
  events
    .filter((e) => e.event === "thread.message.delta")
    .map((e) => e.data.delta.content[0].text.value)
    .join("");

describe("chat with the AI", () => {
  const { server, fake } = useTestServerWithFakeOpenAI();
  let owner: HttpClient;
  let reader: HttpClient;
  let stranger: HttpClient;
  let ids: Record<string, number>;
  let conversationId: number;

  beforeEach(async () => {
    const anonymous = server.client();
    ids = await injectNotes(
      anonymous,
      [{ Title: "Baking" }, { Title: "Sourdough", "Parent Title": "Baking", Details: "A bread leavened by a starter" }],
      "old_learner",
    );
    await anonymous.post("/api/testability/share_to_bazaar", { noteTopology: "Baking" });
    owner = await server.client().loginAs("old_learner");
    reader = await server.client().loginAs("another_old_learner");
    stranger = await server.client().loginAs("non_admin");
    conversationId = (await reader.post(`/api/conversation/note/${ids.Sourdough}`, "What feeds the starter?")).body.id;
  });

  async function sse(client: HttpClient, path: string, body?: unknown) {
    const result = await client.request("POST", path, {
      json: body,
      headers: { accept: "text/event-stream", "accept-encoding": "gzip, br" },
    });
    return { ...result, events: parseSse(result.text) };
  }
  const messages = async () =>
    (await reader.get(`/api/conversation/${conversationId}/messages`)).body as { message: string; sender?: unknown }[];

  test("a plain reply streams the reference's events, ends with done, and is saved as the AI's message", async () => {
    fake.chat.respondWithText("Flour and water, fed daily.");
    const reply = await sse(reader, `/api/conversation/${conversationId}/ai-reply`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toStartWith("text/event-stream");
    expect(reply.headers.get("content-encoding")).toBeNull();
    expect(reply.headers.get("x-accel-buffering")).toBe("no"); // nginx passes events on at once
    const sequence = names(reply.events);
    expect(sequence[0]).toBe("thread.run.created");
    expect(sequence[1]).toBe("thread.message.created");
    expect(sequence.filter((n) => n === "thread.message.delta").length).toBeGreaterThan(1);
    expect(sequence.slice(-3)).toEqual(["thread.message.completed", "thread.run.completed", "done"]);
    expect(replyText(reply.events)).toBe("Flour and water, fed daily.");
    expect(reply.events.find((e) => e.event === "thread.message.completed")!.data.content[0].text.value).toBe(
      "Flour and water, fed daily.",
    );
    expect(reply.events.at(-1)!.data).toBe("[DONE]");

    const saved = await messages();
    expect(saved.map((m) => m.message)).toEqual(["What feeds the starter?", "Flour and water, fed daily."]);
    expect(saved[1]!.sender).toBeUndefined();

    // What the model saw: the instructions, the note's graph, the conversation so far, and the tools.
    const request = fake.chat.requests[0]!;
    expect(request.stream).toBe(true);
    const text = JSON.stringify(request.messages);
    expect(text).toContain("Do not call functions that update the note");
    expect(text).toContain("A bread leavened by a starter");
    const last = request.messages.at(-1)!;
    expect(last.role).toBe("user");
    expect(String(last.content)).toContain("`Another Old Learner` says:");
    expect(String(last.content)).toContain("What feeds the starter?");
    expect((request.tools ?? []).map((tool) => (tool as { function: { name: string } }).function.name)).toEqual([
      "complete_note_details",
      "suggest_note_title",
      "ask_single_answer_multiple_choice_question",
    ]);

    // The next reply sees the AI's earlier answer as the assistant's.
    fake.chat.respondWithText("Yes.");
    await sse(owner, `/api/conversation/${conversationId}/ai-reply`);
    expect(fake.chat.requests[1]!.messages.at(-1)).toEqual({ role: "assistant", content: "Flour and water, fed daily." });
  });

  test("when the owner invites the AI, the note's context leaves out notes the initiator cannot read", async () => {
    const privateIds = await injectNotes(
      server.client(),
      [{ Title: "Diary" }, { Title: "Secret recipe", "Parent Title": "Diary", Details: "Add honey" }],
      "old_learner",
    );
    await server
      .client()
      .post("/api/testability/link_notes", { type: "related to", source_id: ids.Sourdough, target_id: privateIds["Secret recipe"] });
    expect((await owner.get(`/api/notes/${ids.Sourdough}/graph`)).text).toContain("Add honey"); // the owner's own view has it
    fake.chat.respondWithText("Hello.");
    await sse(owner, `/api/conversation/${conversationId}/ai-reply`);
    const sent = JSON.stringify(fake.chat.requests[0]!.messages);
    expect(sent).toContain("A bread leavened by a starter");
    // (The link note itself is in the shared notebook and names its target, as the note page does.)
    expect(sent).not.toContain("Add honey");
  });

  test("the notebook's additional instructions are sent when it has some", async () => {
    await inWrite(server, function* (s) {
      const { notes, notebookAiAssistants } = s.t;
      const note = yield* one(s, s.db.select({ notebookId: notes.notebookId }).from(notes).where(eq(notes.id, ids.Sourdough!)));
      const time = new Date(0);
      yield* run(
        s,
        s.db
          .insert(notebookAiAssistants)
          .values({ notebookId: note!.notebookId, additionalInstructions: "Answer like a baker.", createdAt: time, updatedAt: time }),
      );
    });
    fake.chat.respondWithText("Sure.");
    await sse(reader, `/api/conversation/${conversationId}/ai-reply`);
    expect(JSON.stringify(fake.chat.requests[0]!.messages)).toContain("Answer like a baker.");
  });

  test("a tool call pauses the run; submitting the results streams the continuation and saves the final reply", async () => {
    fake.chat.respondWithToolCall("complete_note_details", { deleteFromEnd: 0, completion: " (rye or wheat)." }, { id: "call_1" });
    const first = await sse(reader, `/api/conversation/${conversationId}/ai-reply`);
    const sequence = names(first.events);
    expect(sequence[1]).toBe("thread.run.step.created");
    expect(sequence).toContain("thread.run.step.delta");
    expect(sequence.slice(-2)).toEqual(["thread.run.requires_action", "done"]);
    expect(
      first.events
        .filter((e) => e.event === "thread.run.step.delta")
        .map((e) => e.data.delta.step_details.tool_calls[0].function.arguments)
        .join(""),
    ).toBe(JSON.stringify({ deleteFromEnd: 0, completion: " (rye or wheat)." }));
    const run = first.events.find((e) => e.event === "thread.run.requires_action")!.data;
    expect(run.status).toBe("requires_action");
    const [call] = run.required_action.submit_tool_outputs.tool_calls;
    expect(call).toMatchObject({ id: "call_1", function: { name: "complete_note_details" } });
    expect(JSON.parse(call.function.arguments)).toEqual({ deleteFromEnd: 0, completion: " (rye or wheat)." });
    expect(await messages()).toHaveLength(1); // nothing saved while waiting

    // Results must cover the run's calls, and nothing else.
    const missing = await reader.post(`/api/ai/submit-tool-results/${run.thread_id}/${run.id}`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors.call_1).toBeString();
    expect(
      (await reader.post(`/api/ai/submit-tool-results/${run.thread_id}/${run.id}`, { call_1: { status: "accepted" }, other: {} })).status,
    ).toBe(400);

    fake.chat.respondWithText("Done: I completed the details.");
    const continued = await sse(owner, `/api/ai/submit-tool-results/${run.thread_id}/${run.id}`, { call_1: { status: "accepted" } });
    expect(continued.status).toBe(200);
    expect(names(continued.events).slice(-3)).toEqual(["thread.message.completed", "thread.run.completed", "done"]);
    expect(replyText(continued.events)).toBe("Done: I completed the details.");
    // The continuation carries the assistant's tool call and the tool's result.
    const sent = fake.chat.requests[1]!.messages;
    expect(sent.at(-2)).toMatchObject({ role: "assistant", tool_calls: [{ id: "call_1", function: { name: "complete_note_details" } }] });
    expect(sent.at(-1)).toEqual({ role: "tool", tool_call_id: "call_1", content: JSON.stringify({ status: "accepted" }) });
    expect((await messages()).map((m) => m.message)).toEqual(["What feeds the starter?", "Done: I completed the details."]);

    // A finished run refuses more results and a cancel.
    const again = await reader.post(`/api/ai/submit-tool-results/${run.thread_id}/${run.id}`, { call_1: { status: "accepted" } });
    expect(again.status).toBe(400);
    expect((await reader.post(`/api/ai/cancel-run/${run.thread_id}/${run.id}`)).status).toBe(400);
  });

  test("a cancelled run saves nothing and refuses results", async () => {
    fake.chat.respondWithToolCall("suggest_note_title", { newTitle: "Sourdough starter" }, { id: "call_t" });
    const first = await sse(reader, `/api/conversation/${conversationId}/ai-reply`);
    const run = first.events.find((e) => e.event === "thread.run.requires_action")!.data;
    expect(run.required_action.submit_tool_outputs.tool_calls[0].function.name).toBe("suggest_note_title");
    const cancelled = await reader.post(`/api/ai/cancel-run/${run.thread_id}/${run.id}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: run.id, thread_id: run.thread_id, status: "cancelled" });
    const refused = await reader.post(`/api/ai/submit-tool-results/${run.thread_id}/${run.id}`, { call_t: { status: "skipped" } });
    expect(refused.status).toBe(400);
    expect((await reader.post(`/api/ai/cancel-run/${run.thread_id}/${run.id}`)).status).toBe(400);
    expect(await messages()).toHaveLength(1);
    expect(fake.chat.requests).toHaveLength(1);
  });

  test("a provider failure, before or during the stream, sends error then done and saves nothing", async () => {
    fake.chat.failWith(400, "Invalid model");
    const refused = await sse(reader, `/api/conversation/${conversationId}/ai-reply`);
    expect(refused.status).toBe(200);
    expect(names(refused.events).slice(-2)).toEqual(["error", "done"]);
    expect(refused.events.at(-2)!.data.message).toContain("400");

    fake.chat.failMidStream("Flour and", "The server had an error");
    const broken = await sse(reader, `/api/conversation/${conversationId}/ai-reply`);
    expect(names(broken.events)).toContain("thread.message.delta");
    expect(names(broken.events).slice(-2)).toEqual(["error", "done"]);
    expect(names(broken.events)).not.toContain("thread.message.completed");
    expect(await messages()).toHaveLength(1);
  });

  test("events reach the browser as they are written (not compressed or buffered); a cancel mid-stream ends it and saves nothing", async () => {
    const slow = await startFakeOpenAI({ streamChunkDelayMs: 150 });
    try {
      await server.client().post("/api/testability/replace_service_url", { openAi: slow.url });
      slow.chat.respondWithText("one two three four five six seven eight nine ten eleven twelve");
      const started = Date.now();
      const response = await fetch(`${server.url}/api/conversation/${conversationId}/ai-reply`, {
        method: "POST",
        headers: { cookie: `engram_session=${reader.sessionCookie}`, accept: "text/event-stream", "accept-encoding": "gzip, br" },
      });
      expect(response.headers.get("content-encoding")).toBeNull();
      const stream = streamText(response);
      let text = await stream.until("thread.message.delta");
      const firstDeltaMs = Date.now() - started;
      // The upstream needs about 12 × 150 ms for the whole reply; the first words come long before.
      expect(firstDeltaMs).toBeLessThan(1200);
      const run = parseSse(text)[0]!.data;
      expect((await reader.post(`/api/ai/cancel-run/${run.thread_id}/${run.id}`)).status).toBe(200);
      text = await stream.toEnd();
      expect(names(parseSse(text)).slice(-2)).toEqual(["error", "done"]);
      expect(Date.now() - started).toBeLessThan(1800);
      expect(await messages()).toHaveLength(1);
    } finally {
      await slow.stop();
    }
  });

  test("a run cancelled through another process (its state in the database) stops streaming here too", async () => {
    const slow = await startFakeOpenAI({ streamChunkDelayMs: 200 });
    try {
      await server.client().post("/api/testability/replace_service_url", { openAi: slow.url });
      const words = Array.from({ length: 20 }, (_, i) => `word${i + 1}`);
      slow.chat.respondWithText(words.join(" "));
      const response = await fetch(`${server.url}/api/conversation/${conversationId}/ai-reply`, {
        method: "POST",
        headers: { cookie: `engram_session=${reader.sessionCookie}` },
      });
      const stream = streamText(response);
      let text = await stream.until("thread.message.delta");
      const run = parseSse(text)[0]!.data;
      // What cancel-run on another process writes: the run's state, nothing in this process.
      await sqlRun(server, sql`UPDATE ai_runs SET status = 'cancelled' WHERE id = ${Number(String(run.id).replace("run_", ""))}`);
      text = await stream.toEnd();
      const events = parseSse(text);
      expect(names(events).slice(-2)).toEqual(["error", "done"]);
      expect(events.at(-2)!.data.message).toBe("The reply was cancelled");
      expect(replyText(events)).not.toContain("word20");
      expect(await messages()).toHaveLength(1);
    } finally {
      await slow.stop();
    }
  });

  test("a browser that goes away mid-reply stops the upstream call; nothing half-written is saved", async () => {
    const slow = await startFakeOpenAI({ streamChunkDelayMs: 100 });
    try {
      await server.client().post("/api/testability/replace_service_url", { openAi: slow.url });
      slow.chat.respondWithText("one two three four five six seven eight nine ten");
      const abort = new AbortController();
      const response = await fetch(`${server.url}/api/conversation/${conversationId}/ai-reply`, {
        method: "POST",
        headers: { cookie: `engram_session=${reader.sessionCookie}` },
        signal: abort.signal,
      });
      await streamText(response).until("thread.message.delta");
      abort.abort();
      await Bun.sleep(1500); // longer than the rest of the upstream reply
      const runs = await sqlRows<{ status: string }>(server, sql`SELECT status FROM ai_runs`);
      expect(runs).toEqual([{ status: "failed" }]);
      expect(await messages()).toHaveLength(1);
    } finally {
      await slow.stop();
    }
  });

  test("about an answered recall question the AI also sees the question, the answer and whether it was correct", async () => {
    // A conversation about a recall prompt, made directly: the recall flow has its own tests.
    const promptId = await inWrite(server, function* (s) {
      const { users, predefinedQuestions, memoryTrackers, recallPrompts } = s.t;
      const time = new Date(0);
      const user = yield* one(s, s.db.select({ id: users.id }).from(users).where(eq(users.name, "Another Old Learner")));
      const question = yield* one(
        s,
        s.db
          .insert(predefinedQuestions)
          .values({
            noteId: ids.Sourdough!,
            multipleChoicesQuestion: JSON.stringify({ stem: "What leavens sourdough?", choices: ["Yeast powder", "A starter"] }),
            correctAnswerIndex: 1,
            approved: false,
            createdAt: time,
          })
          .returning({ id: predefinedQuestions.id }),
      );
      const tracker = yield* one(
        s,
        s.db
          .insert(memoryTrackers)
          .values({ userId: user!.id, noteId: ids.Sourdough!, assimilatedAt: time, lastRecalledAt: time, nextRecallAt: time })
          .returning({ id: memoryTrackers.id }),
      );
      const prompt = yield* one(
        s,
        s.db
          .insert(recallPrompts)
          .values({
            userId: user!.id,
            memoryTrackerId: tracker!.id,
            predefinedQuestionId: question!.id,
            answerChoiceIndex: 0,
            answerCorrect: false,
            answeredAt: time,
            createdAt: time,
          })
          .returning({ id: recallPrompts.id }),
      );
      return prompt!.id;
    });
    // Only the learner the question was put to may start a conversation about it.
    const stranger = await server.client().loginAs("non_admin");
    expect((await stranger.post(`/api/conversation/recall-prompt/${promptId}`, "Mine?")).status).toBe(403);
    expect((await reader.post("/api/conversation/recall-prompt/999999", "Which?")).status).toBe(404);
    const started = await reader.post(`/api/conversation/recall-prompt/${promptId}`, "Why is yeast powder wrong?");
    expect(started.status).toBe(200);
    fake.chat.respondWithText("A starter is wild yeast.");
    await sse(reader, `/api/conversation/${started.body.id}/ai-reply`);
    const sent = JSON.stringify(fake.chat.requests[0]!.messages);
    expect(sent).toContain("What leavens sourdough?");
    expect(sent).toContain('\\"userAnswer\\": 0');
    expect(sent).toContain('\\"userAnswerWasMarkedAs\\": \\"incorrect\\"');
  });

  test("strangers and signed-out callers cannot reply, submit or cancel", async () => {
    fake.chat.respondWithToolCall("suggest_note_title", { newTitle: "Starter" }, { id: "call_s" });
    const run = (await sse(reader, `/api/conversation/${conversationId}/ai-reply`)).events.find(
      (e) => e.event === "thread.run.requires_action",
    )!.data;
    const anonymous = server.client();
    for (const [path, body] of [
      [`/api/conversation/${conversationId}/ai-reply`, undefined],
      [`/api/ai/submit-tool-results/${run.thread_id}/${run.id}`, { call_s: { status: "accepted" } }],
      [`/api/ai/cancel-run/${run.thread_id}/${run.id}`, undefined],
    ] as const) {
      const denied = await stranger.request("POST", path, { json: body });
      expect(denied.status).toBe(403);
      expect(denied.text).not.toContain("Sourdough");
      expect((await anonymous.request("POST", path, { json: body })).status).toBe(401);
    }
    expect((await reader.post(`/api/ai/cancel-run/thread_999999/${run.id}`)).status).toBe(404);
    expect((await reader.post(`/api/ai/cancel-run/${run.thread_id}/run_999999`)).status).toBe(404);
    expect(fake.chat.requests).toHaveLength(1);
    // The run still waits for its party.
    expect((await reader.post(`/api/ai/cancel-run/${run.thread_id}/${run.id}`)).status).toBe(200);
  });
});

describe("chat with the AI without a provider", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ OPENAI_API_KEY: "" });
  });
  afterAll(() => server.stop());

  test("the reply is refused with 503 'AI is not configured' before any stream", async () => {
    const anonymous = server.client();
    await anonymous.post("/api/testability/clean_db_and_reset_testability_settings");
    const ids = await injectNotes(anonymous, [{ Title: "Alone" }], "old_learner");
    const owner = await server.client().loginAs("old_learner");
    const id = (await owner.post(`/api/conversation/note/${ids.Alone}`, "Hello?")).body.id;
    const reply = await owner.request("POST", `/api/conversation/${id}/ai-reply`, { headers: { accept: "text/event-stream" } });
    expect(reply.status).toBe(503);
    expect(reply.body.message).toBe("AI is not configured");
    expect((await owner.get(`/api/conversation/${id}/messages`)).body).toHaveLength(1);
  });
});
