import { beforeEach, describe, expect, test } from "bun:test";
import { type HttpClient, useTestServer, useTestServerWithFakeOpenAI } from "../support/server";

const DEFAULTS = { questionGenerationModel: "gpt-4o-mini", evaluationModel: "gpt-4o-mini", othersModel: "gpt-4o-mini" };

describe("AI model settings and the available models", () => {
  const { server, fake } = useTestServerWithFakeOpenAI();
  let admin: HttpClient;
  let learner: HttpClient;

  beforeEach(async () => {
    admin = await server.client().loginAs("admin");
    learner = await server.client().loginAs("old_learner");
  });

  test("every model defaults to gpt-4o-mini; reading needs a signed-in user", async () => {
    expect((await learner.get("/api/settings/current-model-version")).body).toEqual(DEFAULTS);
    expect((await server.client().get("/api/settings/current-model-version")).status).toBe(401);
  });

  test("an admin changes the models: the answer and later reads show them", async () => {
    const chosen = {
      questionGenerationModel: "gpt-4o",
      evaluationModel: "gpt-4.1-mini",
      othersModel: "ft:gpt-4o-mini-2024-07-18:engram::fake0001",
    };
    const result = await admin.post("/api/settings/current-model-version", chosen);
    expect(result.status).toBe(200);
    expect(result.body).toEqual(chosen);
    expect((await learner.get("/api/settings/current-model-version")).body).toEqual(chosen);
  });

  test("a setting left out keeps its value; names are trimmed", async () => {
    await admin.post("/api/settings/current-model-version", { evaluationModel: "  gpt-4o  " });
    expect((await admin.get("/api/settings/current-model-version")).body).toEqual({ ...DEFAULTS, evaluationModel: "gpt-4o" });
  });

  test("only an admin may change them", async () => {
    const result = await learner.post("/api/settings/current-model-version", { ...DEFAULTS, othersModel: "gpt-4o" });
    expect(result.status).toBe(403);
    expect((await admin.get("/api/settings/current-model-version")).body).toEqual(DEFAULTS);
    expect((await server.client().post("/api/settings/current-model-version", DEFAULTS)).status).toBe(401);
  });

  test("a blank or non-text model name is refused on its field, and nothing is written", async () => {
    const result = await admin.post("/api/settings/current-model-version", { questionGenerationModel: "gpt-4o", evaluationModel: "  " });
    expect(result.status).toBe(400);
    expect(result.body.errors).toEqual({ evaluationModel: "must be a model name of 1 to 200 characters" });
    expect((await admin.post("/api/settings/current-model-version", { othersModel: 4 })).body.errors.othersModel).toBe(
      "must be a model name of 1 to 200 characters",
    );
    expect((await admin.get("/api/settings/current-model-version")).body).toEqual(DEFAULTS);
  });

  test("the available models are the provider's GPT and fine-tuned models", async () => {
    const result = await admin.get("/api/ai/available-gpt-models");
    expect(result.status).toBe(200);
    expect(result.body).toEqual(["gpt-4o-mini", "gpt-4o", "gpt-4.1-mini", "ft:gpt-4o-mini-2024-07-18:engram::fake0001"]);
    const request = fake.requests.at(-1)!;
    expect([request.method, request.path, request.headers.authorization]).toEqual(["GET", "/v1/models", "Bearer test-key"]);
  });

  test("the model list is for admins only", async () => {
    expect((await learner.get("/api/ai/available-gpt-models")).status).toBe(403);
    expect((await server.client().get("/api/ai/available-gpt-models")).status).toBe(401);
    expect(fake.requests).toHaveLength(0);
  });

  test("a failing provider is a 503 that says so (its 401 never looks like being signed out)", async () => {
    fake.on("GET", "/models", () =>
      Response.json({ error: { message: "Incorrect API key provided" } }, { status: 401, headers: { "x-should-retry": "false" } }),
    );
    const result = await admin.get("/api/ai/available-gpt-models");
    expect(result.status).toBe(503);
    expect(result.body.message).toBe("The AI service did not answer. Please try again later.");
  });
});

describe("available models without an AI provider", () => {
  const server = useTestServer({}, { resetBeforeEach: false });

  test('the model list answers 503 "AI is not configured"; the settings still work', async () => {
    await server.client().post("/api/testability/clean_db_and_reset_testability_settings");
    const admin = await server.client().loginAs("admin");
    const result = await admin.get("/api/ai/available-gpt-models");
    expect(result.status).toBe(503);
    expect(result.body.message).toBe("AI is not configured");
    expect((await admin.get("/api/settings/current-model-version")).body).toEqual(DEFAULTS);
  });
});
