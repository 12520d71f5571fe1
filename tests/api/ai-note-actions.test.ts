/**
 * One-shot AI actions on a note over real HTTP, against the fake OpenAI server: the
 * notebook's additional instructions (kept, used in question generation, evaluation and title
 * suggestion), recreating the notebook's assistant record, title suggestion and image generation.
 * Every call is refused signed out (401) and to a stranger (403, without the note's title).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeGlobalSetting } from "../../src/ai/settings";
import { FAKE_PNG_BASE64 } from "../fakes";
import { injectNotes } from "../support/notes";
import { capital, messageText, scriptGoodQuestion, useRecallPromptWorld } from "../support/recall-prompts";
import { type HttpClient, startTestServer, type TestServer } from "../support/server";

const INSTRUCTION = "Ask everything in French.";

/** A short silent 16 kHz mono 16-bit WAV (what the dictation records), `samples` long. */
function wav(samples = 1600): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(44 + samples * 2);
  const view = new DataView(bytes.buffer);
  const text = (at: number, value: string) => {
    for (const [i, c] of [...value].entries()) bytes[at + i] = c.charCodeAt(0);
  };
  text(0, "RIFF");
  view.setUint32(4, 36 + samples * 2, true);
  text(8, "WAVEfmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, 16_000, true);
  view.setUint32(28, 32_000, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, "data");
  view.setUint32(40, samples * 2, true);
  return bytes;
}

/** POST /api/audio/audio-to-text as the browser sends it (multipart), with the client's session. */
async function postAudio(baseUrl: string, client: HttpClient | undefined, fields: Record<string, string | Blob>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const cookie = client?.sessionCookie;
  const response = await fetch(`${baseUrl}/api/audio/audio-to-text`, {
    method: "POST",
    body: form,
    headers: cookie ? { cookie: `engram_session=${cookie}` } : {},
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

describe("notebook AI assistant and one-shot AI actions", () => {
  const w = useRecallPromptWorld();
  let notebookId: number;
  const signedOut = () => w.server.client();
  const stranger = () => w.server.client().loginAs("non_admin");

  const setup = async () => {
    notebookId = (await w.learner.get("/api/notebooks")).body.notebooks[0].id;
  };

  test("additional instructions: null at first, saved trimmed, validated, refused to others", async () => {
    await setup();
    const path = `/api/notebooks/${notebookId}/ai-assistant`;
    const first = await w.learner.get(path);
    expect(first.status).toBe(200);
    expect(first.text).toBe("");

    const saved = await w.learner.patch(path, { additionalInstructions: `  ${INSTRUCTION}  ` });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ additionalInstructionsToAi: INSTRUCTION, notebook: { id: notebookId, title: "Countries" } });
    expect(typeof saved.body.id).toBe("number");
    expect((await w.learner.get(path)).body.additionalInstructionsToAi).toBe(INSTRUCTION);

    expect((await w.learner.patch(path, { additionalInstructions: "x".repeat(10_001) })).status).toBe(400);
    expect((await w.learner.patch(path, { additionalInstructions: 7 })).body.errors.additionalInstructions).toBeDefined();
    expect((await w.learner.patch(path, {})).status).toBe(400);

    const other = await stranger();
    for (const [method, json] of [
      ["GET", undefined],
      ["PATCH", { additionalInstructions: "Leak" }],
    ] as const) {
      const anonymous = await signedOut().request(method, path, json ? { json } : {});
      expect(`${method} ${anonymous.status}`).toBe(`${method} 401`);
      const refused = await other.request(method, path, json ? { json } : {});
      expect(`${method} ${refused.status}`).toBe(`${method} 403`);
      expect(refused.text).not.toContain("Countries");
      expect(refused.text).not.toContain(INSTRUCTION);
    }
    // Signed out is 401 even with a bad body (checked before validation).
    expect((await signedOut().patch(path, { additionalInstructions: 7 })).status).toBe(401);
    expect((await w.learner.get("/api/notebooks/999999/ai-assistant")).status).toBe(404);
    expect((await w.learner.get(path)).body.additionalInstructionsToAi).toBe(INSTRUCTION);
  });

  test("question generation and evaluation get the notebook's instructions as a system message", async () => {
    await setup();
    await w.learner.patch(`/api/notebooks/${notebookId}/ai-assistant`, { additionalInstructions: INSTRUCTION });
    scriptGoodQuestion(w.fake);
    const asked = await w.ask();
    expect(asked.status).toBe(200);
    expect(asked.body.multipleChoicesQuestion.stem).toBe(capital.multipleChoicesQuestion.stem);
    const requests = w.fake.chat.requests;
    expect(requests).toHaveLength(2); // generation, then the automatic check
    for (const request of requests) {
      const system = request.messages.filter((m) => m.role === "system").map(messageText);
      expect(system).toContain(`Additional instruction:\n${INSTRUCTION}`);
    }
  });

  test("without instructions the question prompts are unchanged (no extra message)", async () => {
    scriptGoodQuestion(w.fake);
    expect((await w.ask()).status).toBe(200);
    for (const request of w.fake.chat.requests) {
      expect(request.messages.map(messageText).join("\n")).not.toContain("Additional instruction");
    }
  });

  test("recreate-notebook rebuilds Engram's own record from the settings, without the provider", async () => {
    await setup();
    await w.learner.patch(`/api/notebooks/${notebookId}/ai-assistant`, { additionalInstructions: INSTRUCTION });
    const admin = await w.server.client().loginAs("admin");
    await admin.post("/api/settings/current-model-version", { othersModel: "gpt-4.1-mini" });
    await admin.patch("/api/ai/assistant/default", { additionalInstructions: "Be brief." });

    const path = `/api/ai/assistant/recreate-notebook/${notebookId}`;
    const recreated = await w.learner.post(path);
    expect(recreated.status).toBe(200);
    expect(recreated.body).toMatchObject({
      name: "Assistant for notebook Countries",
      model: "gpt-4.1-mini",
      additionalInstructions: INSTRUCTION,
      notebook: { id: notebookId },
      creator: { name: "Old Learner" },
    });
    expect(recreated.body.instructions).toContain("personal knowledge management");
    expect(recreated.body.instructions).toContain("Be brief.");
    expect(recreated.body.instructions).toEndWith(INSTRUCTION);
    expect(typeof recreated.body.assistantId).toBe("string");
    expect(w.fake.requests).toHaveLength(0);
    expect((await admin.post(path)).status).toBe(200); // an admin may too

    expect((await signedOut().post(path)).status).toBe(401);
    const refused = await (await stranger()).post(path);
    expect(refused.status).toBe(403);
    expect(refused.text).not.toContain("Countries");
    expect((await w.learner.post("/api/ai/assistant/recreate-notebook/999999")).status).toBe(404);
  });

  test("suggest-title: the model's function call with the note and the instructions; refused to others", async () => {
    await setup();
    await w.learner.patch(`/api/notebooks/${notebookId}/ai-assistant`, { additionalInstructions: INSTRUCTION });
    w.fake.chat.respondWithToolCall("suggest_note_title", { newTitle: "  La France  " });
    const path = `/api/ai/suggest-title/${w.ids.France}`;
    const suggested = await w.learner.post(path);
    expect(suggested.status).toBe(200);
    expect(suggested.body).toEqual({ title: "La France" });
    const [request] = w.fake.chat.requests;
    expect(request!.tools?.map((tool) => (tool as { function: { name: string } }).function.name)).toEqual(["suggest_note_title"]);
    const prompt = request!.messages.map(messageText).join("\n");
    expect(prompt).toContain("Its capital is Paris.");
    expect(prompt).toContain(INSTRUCTION);
    expect(prompt).toContain("personal knowledge management");

    // No function call (or a useless one): no suggestion.
    w.fake.chat.respondWithText("France is fine.");
    expect((await w.learner.post(path)).body).toEqual({ title: null });
    w.fake.chat.respondWithToolCall("suggest_note_title", { newTitle: 3 });
    expect((await w.learner.post(path)).body).toEqual({ title: null });
    // The provider failing is a 503 with a message, not a 500.
    w.fake.chat.failWith(500, "boom");
    const failed = await w.learner.post(path);
    expect(failed.status).toBe(503);
    expect(failed.body.message).toBeDefined();

    const before = w.fake.requests.length;
    expect((await signedOut().post(path)).status).toBe(401);
    const refused = await (await stranger()).post(path);
    expect(refused.status).toBe(403);
    expect(refused.text).not.toContain("France");
    expect(w.fake.requests.length).toBe(before); // nothing sent to the provider for them
    expect((await w.learner.post("/api/ai/suggest-title/999999")).status).toBe(404);
  });

  test("generate-image: the prompt string goes to images/generations, the PNG comes back as base64", async () => {
    const generated = await w.learner.post("/api/ai/generate-image", "A map of France");
    expect(generated.status).toBe(200);
    expect(generated.body).toEqual({ b64encoded: FAKE_PNG_BASE64 });
    const request = w.fake.requests.find((r) => r.path.endsWith("/images/generations"));
    expect(request?.body).toMatchObject({ prompt: "A map of France", response_format: "b64_json" });

    // The prompt's errors are reported on "prompt", whether the schema or the service finds them.
    const promptError = { prompt: "must be text of 1 to 4000 characters" };
    for (const bad of ["", "   ", "x".repeat(4001), { prompt: "not a string" }]) {
      const refused = await w.learner.post("/api/ai/generate-image", bad);
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual(promptError);
    }
    expect((await signedOut().post("/api/ai/generate-image", "A map")).status).toBe(401);

    w.fake.on("POST", "/images/generations", () =>
      Response.json({ error: { message: "content policy", type: "invalid_request_error" } }, { status: 400 }),
    );
    const failed = await w.learner.post("/api/ai/generate-image", "A map of France");
    expect(failed.status).toBe(503);
  });
});

describe("voice dictation: audio to text", () => {
  const w = useRecallPromptWorld();
  const audio = () => new File([wav()], "chunk.wav", { type: "audio/wav" });

  test("mid-speech: the last SRT segment is dropped, the rest cleaned up against the previous details", async () => {
    w.fake.chat.respondWithJson(
      { deleteFromEnd: 1, completion: " Hello from the fake." },
      { match: { schemaName: "complete_note_details" } },
    );
    const answer = await postAudio(w.server.url, w.learner, {
      uploadAudioFile: audio(),
      additionalProcessingInstructions: "Keep it short.",
      isMidSpeech: "true",
      previousNoteDetailsToAppendTo: "...Its capital is Paris.",
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      completionFromAudio: { deleteFromEnd: 1, completion: " Hello from the fake." },
      rawSRT: "1\n00:00:00,000 --> 00:00:02,500\nHello from the fake.",
      endTimestamp: "00:00:02,500",
    });
    const transcription = w.fake.requests.find((r) => r.path.endsWith("/audio/transcriptions"));
    expect(String(transcription?.body)).toContain("whisper-1");
    expect(String(transcription?.body)).toContain('filename="audio.wav"');
    const [chat] = w.fake.chat.requests;
    const prompt = chat!.messages.map(messageText).join("\n");
    expect(prompt).toContain("Additional instruction:\nKeep it short.");
    expect(prompt).toContain('{"previousNoteDetailsToAppendTo":"...Its capital is Paris."}');
    expect(prompt).toContain("Hello from the fake.");
    expect(prompt).not.toContain("Second segment");
  });

  test("at the end of speech everything is kept; the transcription model is a setting", async () => {
    await writeGlobalSetting(w.server.ctx, "transcriptionModel", "whisper-large-v3");
    w.fake.chat.respondWithJson(
      { deleteFromEnd: 0, completion: "Hello. Second segment" },
      { match: { schemaName: "complete_note_details" } },
    );
    const answer = await postAudio(w.server.url, w.learner, { uploadAudioFile: audio(), isMidSpeech: "false" });
    expect(answer.status).toBe(200);
    expect(answer.body.endTimestamp).toBe("00:00:04,000");
    expect(answer.body.rawSRT).toContain("Second segment");
    expect(String(w.fake.requests.find((r) => r.path.endsWith("/audio/transcriptions"))?.body)).toContain("whisper-large-v3");
  });

  test("refusals: signed out 401 first, then the upload's type and size, the fields; no usable answer is 'Failed to process audio'", async () => {
    expect((await postAudio(w.server.url, undefined, { uploadAudioFile: "not a file" })).status).toBe(401);
    const notAudio = await postAudio(w.server.url, w.learner, {
      uploadAudioFile: new File(["hello, I am text"], "x.wav", { type: "audio/wav" }),
    });
    expect(notAudio.status).toBe(400);
    expect(notAudio.body.errors.uploadAudioFile).toContain("audio file");
    expect((await postAudio(w.server.url, w.learner, {})).body.errors.uploadAudioFile).toBeDefined();
    const big = wav(10 * 1024 * 1024 + 1); // just over 20 MB
    expect((await postAudio(w.server.url, w.learner, { uploadAudioFile: new File([big], "big.wav") })).status).toBe(400);
    const badFields = await postAudio(w.server.url, w.learner, {
      uploadAudioFile: audio(),
      isMidSpeech: "maybe",
      previousNoteDetailsToAppendTo: "x".repeat(2001),
    });
    expect(Object.keys(badFields.body.errors).sort()).toEqual(["isMidSpeech", "previousNoteDetailsToAppendTo"]);
    expect(w.fake.requests).toHaveLength(0); // nothing refused reached the provider

    w.fake.chat.respondWithJson({ nothing: true }, { match: { schemaName: "complete_note_details" } });
    const unusable = await postAudio(w.server.url, w.learner, { uploadAudioFile: audio() });
    expect(unusable.status).toBe(503);
    expect(unusable.body.message).toBe("Failed to process audio");
  });
});

describe("odd requests are answered, never with a 500", () => {
  const w = useRecallPromptWorld();
  test("malformed JSON, wrong content types and bad ids", async () => {
    const notebookId = (await w.learner.get("/api/notebooks")).body.notebooks[0].id;
    const cookie = `engram_session=${w.learner.sessionCookie}`;
    const raw = (method: string, path: string, body: string, type = "application/json") =>
      fetch(`${w.server.url}${path}`, { method, body, headers: { cookie, "content-type": type } }).then((r) => r.status);
    const statuses = {
      image: await raw("POST", "/api/ai/generate-image", "{not json"),
      assistant: await raw("PATCH", `/api/notebooks/${notebookId}/ai-assistant`, "[1,2"),
      audioJson: await raw("POST", "/api/audio/audio-to-text", JSON.stringify({ uploadAudioFile: "x" })),
      titleId: (await w.learner.post("/api/ai/suggest-title/abc")).status,
      recreateId: (await w.learner.post("/api/ai/assistant/recreate-notebook/-1")).status,
    };
    for (const [name, status] of Object.entries(statuses)) expect(`${name} ${status >= 400 && status < 500}`).toBe(`${name} true`);
    expect(w.fake.requests).toHaveLength(0);
  });
});

describe("one-shot AI actions without an AI provider", () => {
  let server: TestServer;
  let learner: HttpClient;
  let ids: Record<string, number>;
  beforeAll(async () => {
    server = await startTestServer();
    await server.client().post("/api/testability/clean_db_and_reset_testability_settings");
    learner = await server.client().loginAs("old_learner");
    ids = await injectNotes(learner, [{ Title: "Countries" }, { Title: "France", "Parent Title": "Countries" }]);
  });
  afterAll(() => server.stop());

  test('"AI is not configured" for title, image and audio; settings and recreate still work', async () => {
    for (const [path, body] of [
      [`/api/ai/suggest-title/${ids.France}`, {}],
      ["/api/ai/generate-image", "A map"],
    ] as const) {
      const answer = await learner.post(path, body);
      expect(`${path} ${answer.status} ${answer.body.message}`).toBe(`${path} 503 AI is not configured`);
    }
    const dictated = await postAudio(server.url, learner, { uploadAudioFile: new File([wav()], "chunk.wav") });
    expect(`${dictated.status} ${dictated.body.message}`).toBe("503 AI is not configured");
    const notebookId = (await learner.get("/api/notebooks")).body.notebooks[0].id;
    expect((await learner.patch(`/api/notebooks/${notebookId}/ai-assistant`, { additionalInstructions: INSTRUCTION })).status).toBe(200);
    expect((await learner.post(`/api/ai/assistant/recreate-notebook/${notebookId}`)).status).toBe(200);
  });
});
