/**
 * Fake outside services for API and e2e tests: small Bun servers speaking the real OpenAI and Wikidata wire
 * protocols. Start one per test file (or per test), point the app at its `url`, and `stop()` it afterwards.
 */

export type { RecordedRequest } from "./http.ts";
export * from "./openai.ts";
export * from "./wikidata.ts";
