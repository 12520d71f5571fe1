import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import OpenAI, { APIConnectionTimeoutError, APIError } from "openai";
import {
  cosineSimilarity,
  type FakeOpenAI,
  type FakeWikidata,
  fakeEmbedding,
  startFakeOpenAI,
  startFakeWikidata,
  wikidataValue,
} from "../fakes/index.ts";

const mcqSchema = {
  type: "object",
  additionalProperties: false,
  required: ["multipleChoicesQuestion", "correctChoiceIndex", "strictChoiceOrder"],
  properties: {
    multipleChoicesQuestion: {
      type: "object",
      additionalProperties: false,
      required: ["stem", "choices"],
      properties: { stem: { type: "string" }, choices: { type: "array", items: { type: "string" } } },
    },
    correctChoiceIndex: { type: "integer" },
    strictChoiceOrder: { type: "boolean" },
  },
};

function mcqRequest(name = "ask_single_answer_multiple_choice_question") {
  return {
    model: "gpt-4o-mini",
    n: 1,
    messages: [
      { role: "system" as const, content: "You help people remember." },
      { role: "user" as const, content: "Make a question about photosynthesis." },
    ],
    response_format: {
      type: "json_schema" as const,
      json_schema: { name, strict: true, schema: mcqSchema },
    },
  };
}

describe("fake OpenAI server, through the real openai client", () => {
  let fake: FakeOpenAI;
  let client: OpenAI;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    client = new OpenAI({ apiKey: "test", baseURL: fake.url });
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.stop());

  test("its url is a loopback base URL ending in /v1", () => {
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  test("json_schema structured output comes back as the message content string", async () => {
    const mcq = {
      multipleChoicesQuestion: { stem: "Where does photosynthesis happen?", choices: ["Chloroplast", "Nucleus"] },
      correctChoiceIndex: 0,
      strictChoiceOrder: false,
    };
    fake.chat.respondWithJson(mcq);

    const completion = await client.chat.completions.create(mcqRequest());

    expect(completion.object).toBe("chat.completion");
    expect(completion.model).toBe("gpt-4o-mini");
    expect(completion.choices).toHaveLength(1);
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe("stop");
    expect(choice.message.role).toBe("assistant");
    expect(typeof choice.message.content).toBe("string");
    expect(JSON.parse(choice.message.content!)).toEqual(mcq);
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);

    // the request is recorded with its path and body
    const recorded = fake.requests.at(-1)!;
    expect(recorded.method).toBe("POST");
    expect(recorded.path).toBe("/v1/chat/completions");
    expect(recorded.headers.authorization).toBe("Bearer test");
    expect(fake.chat.requests).toHaveLength(1);
    const body = fake.chat.requests[0]!;
    expect(body.response_format).toMatchObject({
      type: "json_schema",
      json_schema: { name: "ask_single_answer_multiple_choice_question", strict: true },
    });
    expect(body.messages.at(-1)).toEqual({ role: "user", content: "Make a question about photosynthesis." });
  });

  test("queued replies are used in order, and can be matched on the json_schema name", async () => {
    fake.chat.respondWithJson(
      { correctChoices: [0], feasibleQuestion: true, improvementAdvices: "" },
      {
        match: { schemaName: "evaluate_question" },
      },
    );
    fake.chat.respondWithText("first");
    fake.chat.respondWithText("second");

    const first = await client.chat.completions.create(mcqRequest());
    const evaluation = await client.chat.completions.create(mcqRequest("evaluate_question"));
    const second = await client.chat.completions.create(mcqRequest());

    expect(first.choices[0]!.message.content).toBe("first");
    expect(JSON.parse(evaluation.choices[0]!.message.content!)).toMatchObject({ feasibleQuestion: true });
    expect(second.choices[0]!.message.content).toBe("second");
    expect(fake.chat.pending).toBe(0);
  });

  test("matching on the last user message, and replies that repeat", async () => {
    fake.chat.respondWithText("about cats", { match: { lastUserMessage: /cat/i }, times: Infinity });
    fake.chat.respondWithText("anything else", { times: 2 });
    const ask = (content: string) =>
      client.chat.completions
        .create({ model: "gpt-4o-mini", messages: [{ role: "user", content }] })
        .then((c) => c.choices[0]!.message.content);

    expect(await ask("Tell me about dogs")).toBe("anything else");
    expect(await ask("Tell me about Cats")).toBe("about cats");
    expect(await ask("Cats again")).toBe("about cats");
    expect(await ask("Birds")).toBe("anything else");
    expect(fake.chat.pending).toBe(1); // the Infinity one stays
  });

  test("with nothing scripted it answers a 500 saying so, and the client does not retry", async () => {
    const error = await client.chat.completions.create(mcqRequest()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    const apiError = error as APIError;
    expect(apiError.status).toBe(500);
    expect(apiError.code).toBe("fake_not_scripted");
    expect(apiError.message).toContain("no chat completion was scripted");
    expect(apiError.message).toContain("ask_single_answer_multiple_choice_question");
    expect(fake.chat.requests).toHaveLength(1);
  });

  test("setDefault gives a deterministic answer when nothing is queued", async () => {
    fake.chat.setDefault((body) => ({ kind: "text", text: `echo: ${body.model}` }));
    const completion = await client.chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(completion.choices[0]!.message.content).toBe("echo: gpt-4o");
  });

  test("streaming: SSE chunks assemble into the content", async () => {
    const text = "Photosynthesis turns light, water and carbon dioxide into sugar.";
    fake.chat.respondWithText(text);

    const stream = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Explain photosynthesis" }],
      stream: true,
    });
    let content = "";
    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      content += chunk.choices[0]?.delta.content ?? "";
    }

    expect(content).toBe(text);
    expect(chunks.length).toBeGreaterThan(3); // incremental deltas, not one blob
    expect(chunks.every((c) => c.object === "chat.completion.chunk")).toBe(true);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks[0]!.choices[0]!.delta.role).toBe("assistant");
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe("stop");
  });

  test("streaming: the raw wire format is data: lines ending with [DONE]", async () => {
    fake.chat.respondWithText("Hello there");
    const response = await fetch(`${fake.url}/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer test", "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }], stream: true }),
    });
    expect(response.headers.get("content-type")).toStartWith("text/event-stream");
    const raw = await response.text();
    const events = raw.split("\n\n").filter((e) => e !== "");
    expect(events.every((e) => e.startsWith("data: "))).toBe(true);
    expect(events.at(-1)).toBe("data: [DONE]");
    const contents = events
      .slice(0, -1)
      .map((e) => JSON.parse(e.slice("data: ".length)) as OpenAI.Chat.ChatCompletionChunk)
      .map((c) => c.choices[0]?.delta.content ?? "");
    expect(contents.join("")).toBe("Hello there");
  });

  test("streaming with include_usage ends with a usage chunk, and the SDK stream helper works", async () => {
    fake.chat.respondWithJson({ newTitle: "Light reactions" });
    const runner = client.chat.completions.stream({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "title?" }],
      stream_options: { include_usage: true },
    });
    const final = await runner.finalChatCompletion();
    expect(JSON.parse(final.choices[0]!.message.content!)).toEqual({ newTitle: "Light reactions" });
    expect(final.usage?.total_tokens).toBeGreaterThan(0);
  });

  test("tool calls, non-streaming", async () => {
    fake.chat.respondWithToolCall("complete_note_details", { deleteFromEnd: 0, completion: " and more." });
    const completion = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Complete my note" }],
      tools: [
        {
          type: "function",
          function: {
            name: "complete_note_details",
            strict: true,
            parameters: {
              type: "object",
              additionalProperties: false,
              required: ["deleteFromEnd", "completion"],
              properties: { deleteFromEnd: { type: "integer" }, completion: { type: "string" } },
            },
          },
        },
      ],
    });
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls![0]!;
    expect(call.type).toBe("function");
    expect(call.id).toMatch(/^call_/);
    if (call.type !== "function") throw new Error("expected a function call");
    expect(call.function.name).toBe("complete_note_details");
    expect(JSON.parse(call.function.arguments)).toEqual({ deleteFromEnd: 0, completion: " and more." });
  });

  test("tool calls, streaming: tool_call deltas assemble into the call", async () => {
    fake.chat.respondWithToolCalls([
      { name: "suggest_note_title", arguments: { newTitle: "A much better and rather long title" }, id: "call_one" },
      { name: "complete_note_details", arguments: { deleteFromEnd: 2, completion: "ok" } },
    ]);
    const stream = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Help" }],
      stream: true,
    });
    const calls: { id?: string; name: string; args: string }[] = [];
    let finish: string | null = null;
    let argumentDeltas = 0;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (!choice) continue;
      for (const delta of choice.delta.tool_calls ?? []) {
        const call = calls[delta.index] ?? { name: "", args: "" };
        calls[delta.index] = call;
        if (delta.id) call.id = delta.id;
        if (delta.function?.name) call.name += delta.function.name;
        if (delta.function?.arguments) {
          call.args += delta.function.arguments;
          argumentDeltas++;
        }
      }
      finish = choice.finish_reason ?? finish;
    }
    expect(finish).toBe("tool_calls");
    expect(argumentDeltas).toBeGreaterThan(2);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.id).toBe("call_one");
    expect(calls[0]!.name).toBe("suggest_note_title");
    expect(JSON.parse(calls[0]!.args)).toEqual({ newTitle: "A much better and rather long title" });
    expect(calls[1]!.name).toBe("complete_note_details");
    expect(JSON.parse(calls[1]!.args)).toEqual({ deleteFromEnd: 2, completion: "ok" });
  });

  test("an error mid-stream makes the client throw", async () => {
    fake.chat.failMidStream("Partial ", "The server had an error while processing your request.");
    const stream = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    let content = "";
    const error = await (async () => {
      for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? "";
    })().catch((e: unknown) => e);
    expect(content).toBe("Partial ");
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).message).toContain("The server had an error");
  });

  test("scripted failures are APIErrors with the status and OpenAI's error body", async () => {
    fake.chat.failWith(401, "Incorrect API key provided: test.", { code: "invalid_api_key" });
    const unauthorized = await client.chat.completions.create(mcqRequest()).catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((unauthorized as APIError).status).toBe(401);
    expect((unauthorized as APIError).code).toBe("invalid_api_key");
    expect((unauthorized as APIError).type).toBe("invalid_request_error");

    fake.chat.failWith(503, "The engine is currently overloaded.");
    const overloaded = await client.chat.completions.create(mcqRequest()).catch((e: unknown) => e);
    expect(overloaded).toBeInstanceOf(OpenAI.InternalServerError);
    expect((overloaded as APIError).status).toBe(503);
    expect((overloaded as APIError).message).toContain("The engine is currently overloaded.");
    expect(fake.chat.requests).toHaveLength(2); // no automatic retries

    // the raw body has OpenAI's shape
    fake.chat.failWith(429, "Rate limit reached", { code: "rate_limit_exceeded" });
    const raw = await fetch(`${fake.url}/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer test", "content-type": "application/json" },
      body: JSON.stringify(mcqRequest()),
    });
    expect(raw.status).toBe(429);
    expect(await raw.json()).toEqual({
      error: { message: "Rate limit reached", type: "requests", param: null, code: "rate_limit_exceeded" },
    });
  });

  test("a retryable failure lets the client retry and get the next reply", async () => {
    fake.chat.failWith(500, "flaky", { retryable: true, retryAfterMs: 0 });
    fake.chat.respondWithText("recovered");
    const retrying = new OpenAI({ apiKey: "test", baseURL: fake.url, maxRetries: 1 });
    const completion = await retrying.chat.completions.create(mcqRequest());
    expect(completion.choices[0]!.message.content).toBe("recovered");
    expect(fake.chat.requests).toHaveLength(2);
  });

  test("delay makes a client with a short timeout time out", async () => {
    fake.chat.delay(500);
    fake.chat.respondWithText("too late");
    const impatient = new OpenAI({ apiKey: "test", baseURL: fake.url, timeout: 100, maxRetries: 0 });
    const error = await impatient.chat.completions.create(mcqRequest()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
  });

  test("an empty 200 body can be scripted (the 'no answer' case)", async () => {
    fake.chat.respondWithRaw("");
    const response = await fetch(`${fake.url}/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer test", "content-type": "application/json" },
      body: JSON.stringify(mcqRequest()),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
  });

  test("an apiKey makes other keys fail with 401 invalid_api_key", async () => {
    fake.apiKey = "sk-right";
    try {
      const error = await client.models.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect((error as APIError).code).toBe("invalid_api_key");
      const right = new OpenAI({ apiKey: "sk-right", baseURL: fake.url });
      expect((await right.models.list()).data.length).toBeGreaterThan(0);
    } finally {
      fake.apiKey = undefined;
    }
  });

  test("models list", async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toContain("gpt-4o-mini");
    expect(ids).toContain("text-embedding-3-small");
    expect(ids.some((id) => id.startsWith("ft:"))).toBe(true);

    fake.models = ["gpt-only"];
    const page = await client.models.list();
    expect(page.data.map((m) => m.id)).toEqual(["gpt-only"]);
    expect(page.data[0]).toMatchObject({ object: "model", owned_by: "system" });
    expect((await client.models.retrieve("gpt-only")).id).toBe("gpt-only");
    const missing = await client.models.retrieve("nope").catch((e: unknown) => e);
    expect((missing as APIError).status).toBe(404);
    fake.models = ["gpt-4o-mini", "text-embedding-3-small"];
  });

  test("embeddings: default base64 encoding decodes to deterministic 1536-dim unit vectors", async () => {
    const texts = ["Title: Photosynthesis\nDetails: light makes sugar", "Title: Cats\nDetails: they purr"];
    const first = await client.embeddings.create({ model: "text-embedding-3-small", input: texts });
    const again = await client.embeddings.create({ model: "text-embedding-3-small", input: texts });

    // the client asked for base64 by itself
    expect(fake.embeddings.requests[0]!.encoding_format).toBe("base64");
    expect(first.object).toBe("list");
    expect(first.model).toBe("text-embedding-3-small");
    expect(first.data.map((d) => d.index)).toEqual([0, 1]);
    for (const item of first.data) {
      expect(item.object).toBe("embedding");
      expect(item.embedding).toHaveLength(1536);
      const norm = Math.sqrt(item.embedding.reduce((s, x) => s + x * x, 0));
      expect(norm).toBeCloseTo(1, 5);
    }
    expect(again.data[0]!.embedding).toEqual(first.data[0]!.embedding);
    expect(first.data[0]!.embedding).toEqual(fakeEmbedding(texts[0]!));
    expect(first.data[0]!.embedding).not.toEqual(first.data[1]!.embedding);
    expect(first.usage.prompt_tokens).toBeGreaterThan(0);
  });

  test("embeddings: float encoding gives the same numbers; string input; configurable dimensions", async () => {
    const asFloat = await client.embeddings.create({
      model: "text-embedding-3-small",
      input: "photosynthesis in leaves",
      encoding_format: "float",
    });
    const asBase64 = await client.embeddings.create({ model: "text-embedding-3-small", input: "photosynthesis in leaves" });
    expect(asFloat.data).toHaveLength(1);
    expect(Array.isArray(asFloat.data[0]!.embedding)).toBe(true);
    expect(asFloat.data[0]!.embedding).toEqual(asBase64.data[0]!.embedding);

    const small = await client.embeddings.create({ model: "text-embedding-3-small", input: ["a b"], dimensions: 64 });
    expect(small.data[0]!.embedding).toHaveLength(64);

    const other = await startFakeOpenAI({ embeddingDimensions: 8 });
    try {
      const c = new OpenAI({ apiKey: "test", baseURL: other.url });
      const r = await c.embeddings.create({ model: "m", input: "hello" });
      expect(r.data[0]!.embedding).toHaveLength(8);
    } finally {
      await other.stop();
    }
  });

  test("embeddings: texts sharing words are closer than unrelated texts", () => {
    const a = fakeEmbedding("the study of nature and plants");
    const b = fakeEmbedding("plants and nature");
    const c = fakeEmbedding("quantum chromodynamics");
    expect(cosineSimilarity(a, b)).toBeGreaterThan(0.5);
    expect(cosineSimilarity(a, c)).toBeLessThan(0.1);
  });

  test("embeddings: fixed vectors per pattern, scripted failures, and OpenAI-shaped validation errors", async () => {
    fake.embeddings.setVector(/something else/, [0.9, 0.9, 0.9]);
    const r = await client.embeddings.create({
      model: "text-embedding-3-small",
      input: ["this is something else", "plain"],
    });
    expect(r.data[0]!.embedding.map((x) => Number(x.toFixed(4)))).toEqual([0.9, 0.9, 0.9]);
    expect(r.data[1]!.embedding).toHaveLength(1536);

    fake.embeddings.failWith(500, "embedding service down");
    const failed = await client.embeddings.create({ model: "text-embedding-3-small", input: ["x"] }).catch((e: unknown) => e);
    expect((failed as APIError).status).toBe(500);

    const invalid = await client.embeddings.create({ model: "text-embedding-3-small", input: "" }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(OpenAI.BadRequestError);
    expect((invalid as APIError).type).toBe("invalid_request_error");
  });

  test("unknown routes answer 404 in OpenAI's error shape; custom routes can be added", async () => {
    const error = await client.moderations.create({ input: "a cat" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as APIError).message).toContain("Invalid URL (POST /v1/moderations)");

    fake.on("POST", "/moderations", () => Response.json({ id: "modr-1", model: "omni-moderation-latest", results: [{ flagged: false }] }));
    const moderation = await client.moderations.create({ input: "a cat" });
    expect(moderation.results[0]!.flagged).toBe(false);
  });

  test("also answers without the /v1 prefix", async () => {
    const bare = new OpenAI({ apiKey: "test", baseURL: fake.url.replace(/\/v1$/, "") });
    fake.chat.respondWithText("no prefix");
    const completion = await bare.chat.completions.create(mcqRequest());
    expect(completion.choices[0]!.message.content).toBe("no prefix");
    expect(fake.requests.at(-1)!.path).toBe("/chat/completions");
  });
});

describe("fake Wikidata server, through fetch", () => {
  let wikidata: FakeWikidata;

  beforeAll(async () => {
    wikidata = await startFakeWikidata();
  });
  afterEach(() => wikidata.reset());
  afterAll(() => wikidata.stop());

  function addDouglasAdams() {
    wikidata.addEntity({
      id: "Q42",
      label: "Douglas Adams",
      description: "English writer and humorist (1952–2001)",
      aliases: ["DNA"],
      enwikiTitle: "Douglas Adams",
      claims: {
        P31: "Q5",
        P27: "Q145",
        P569: wikidataValue.time("+1952-03-11T00:00:00Z"),
      },
    });
    wikidata.addEntity({ id: "Q145", label: "United Kingdom", description: "country in north-west Europe" });
  }

  const get = (path: string) =>
    fetch(`${wikidata.url}${path}`, { headers: { accept: "application/json", "user-agent": "Engram-test/1.0" } });

  const searchPath = (q: string) =>
    `/w/api.php?action=wbsearchentities&search=${encodeURIComponent(q)}&format=json&language=en&uselang=en&type=item&limit=10`;

  test("its url is a loopback base URL", () => {
    expect(wikidata.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test("wbsearchentities finds entities by label prefix, case-insensitively", async () => {
    addDouglasAdams();
    wikidata.addEntity({ id: "Q1", label: "Universe" });

    const response = await get(searchPath("douglas"));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { search: { id: string; label: string; description?: string }[]; success: number };
    expect(body.success).toBe(1);
    expect(body.search).toHaveLength(1);
    expect(body.search[0]).toMatchObject({
      id: "Q42",
      label: "Douglas Adams",
      description: "English writer and humorist (1952–2001)",
      concepturi: "http://www.wikidata.org/entity/Q42",
      match: { type: "label", language: "en", text: "Douglas Adams" },
    });

    const byAlias = (await (await get(searchPath("dna"))).json()) as { search: { id: string; aliases?: string[] }[] };
    expect(byAlias.search.map((s) => s.id)).toEqual(["Q42"]);
    expect(byAlias.search[0]!.aliases).toEqual(["DNA"]);

    const none = (await (await get(searchPath("zebra"))).json()) as { search: unknown[] };
    expect(none.search).toEqual([]);

    // an entity without description has no description key, like the real API
    const universe = (await (await get(searchPath("Univ"))).json()) as { search: Record<string, unknown>[] };
    expect(universe.search[0]!.description).toBeUndefined();

    expect(wikidata.requests.at(-1)!.query).toMatchObject({ action: "wbsearchentities", search: "Univ" });
    expect(wikidata.requests.at(-1)!.headers["user-agent"]).toBe("Engram-test/1.0");
  });

  test("wbsearchentities respects limit and reports a missing search parameter like MediaWiki", async () => {
    for (let i = 1; i <= 12; i++) wikidata.addEntity({ id: `Q${1000 + i}`, label: `Apple ${i}` });
    const limited = (await (await get(searchPath("apple"))).json()) as { search: unknown[]; "search-continue"?: number };
    expect(limited.search).toHaveLength(10);
    expect(limited["search-continue"]).toBe(10);

    const missing = await get("/w/api.php?action=wbsearchentities&format=json&language=en");
    expect(missing.status).toBe(200);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("missingparam");
  });

  test("Special:EntityData gives labels and the enwiki sitelink with its url", async () => {
    addDouglasAdams();
    const response = await get("/wiki/Special:EntityData/Q42.json");
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      entities: Record<
        string,
        {
          id: string;
          type: string;
          labels: { en?: { language: string; value: string } };
          sitelinks: { enwiki?: { site: string; title: string; url: string } };
          claims: Record<string, unknown[]>;
        }
      >;
    };
    const q42 = body.entities.Q42!;
    expect(q42.id).toBe("Q42");
    expect(q42.type).toBe("item");
    expect(q42.labels.en).toEqual({ language: "en", value: "Douglas Adams" });
    expect(q42.sitelinks.enwiki).toEqual({
      site: "enwiki",
      title: "Douglas Adams",
      badges: [],
      url: "https://en.wikipedia.org/wiki/Douglas_Adams",
    } as unknown as { site: string; title: string; url: string });
    expect(Object.keys(q42.claims).sort()).toEqual(["P27", "P31", "P569"]);

    // without a Wikipedia article there is no enwiki sitelink
    const uk = (await (await get("/wiki/Special:EntityData/Q145.json")).json()) as typeof body;
    expect(uk.entities.Q145!.sitelinks).toEqual({});

    const unknown = await get("/wiki/Special:EntityData/Q999999.json");
    expect(unknown.status).toBe(404);
  });

  test("wbgetentities gives claims in the mainsnak/datavalue shape", async () => {
    addDouglasAdams();
    wikidata.addEntity({
      id: "Q334",
      label: "Singapore",
      claims: { P625: wikidataValue.coordinate(1.3, 103.8) },
    });
    wikidata.addEntity({ id: "Q25338", label: "The Little Prince", claims: { P50: ["Q2908", "Q42"] } });

    type Claims = Record<
      string,
      { mainsnak: { snaktype: string; property: string; datavalue: { type: string; value: { id?: string; [field: string]: unknown } } } }[]
    >;
    const fetchClaims = async (id: string) => {
      const r = await get(`/w/api.php?action=wbgetentities&ids=${id}&format=json&props=claims`);
      const body = (await r.json()) as { entities: Record<string, { id: string; type: string; claims: Claims; labels?: unknown }> };
      return body.entities[id]!;
    };

    const person = await fetchClaims("Q42");
    expect(person.labels).toBeUndefined(); // props=claims only
    expect(person.claims.P31![0]!.mainsnak).toMatchObject({
      snaktype: "value",
      property: "P31",
      datavalue: { type: "wikibase-entityid", value: { "entity-type": "item", "numeric-id": 5, id: "Q5" } },
    });
    expect(person.claims.P569![0]!.mainsnak.datavalue).toMatchObject({
      type: "time",
      value: { time: "+1952-03-11T00:00:00Z", precision: 11 },
    });
    expect(person.claims.P27![0]!.mainsnak.datavalue.value.id).toBe("Q145");

    const place = await fetchClaims("Q334");
    expect(place.claims.P625![0]!.mainsnak.datavalue).toMatchObject({
      type: "globecoordinate",
      value: { latitude: 1.3, longitude: 103.8 },
    });

    const book = await fetchClaims("Q25338");
    expect(book.claims.P50!.map((c) => c.mainsnak.datavalue.value.id)).toEqual(["Q2908", "Q42"]);

    const missing = await fetchClaims("Q7777777");
    expect(missing).toEqual({ id: "Q7777777", missing: "" } as unknown as typeof missing);
  });

  test("failures: failNext, down, and a non-JSON body", async () => {
    addDouglasAdams();
    wikidata.failNext(500);
    expect((await get(searchPath("douglas"))).status).toBe(500);
    expect((await get(searchPath("douglas"))).status).toBe(200);

    wikidata.failNext(429, 2);
    expect((await get("/wiki/Special:EntityData/Q42.json")).status).toBe(429);
    expect((await get("/wiki/Special:EntityData/Q42.json")).status).toBe(429);
    expect((await get("/wiki/Special:EntityData/Q42.json")).status).toBe(200);

    wikidata.down = true;
    const down = await get(searchPath("douglas"));
    expect(down.status).toBe(503);
    expect(down.headers.get("content-type")).toStartWith("text/html");
    wikidata.down = false;
    expect((await get(searchPath("douglas"))).status).toBe(200);

    wikidata.respondNextWithRaw("<html>not json</html>");
    const garbled = await get(searchPath("douglas"));
    expect(garbled.status).toBe(200);
    expect(() => JSON.parse("<html>not json</html>")).toThrow();
    expect(await garbled.text()).toBe("<html>not json</html>");
  });
});
