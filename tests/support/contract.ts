/**
 * The wire contract, checked on real answers: every JSON response the API tests receive from a
 * test server is recorded with its method, path and status, and validated after the test file
 * against the response schema the reference's OpenAPI document (tests/fixtures/reference-contract.yaml)
 * gives that operation and status, with Ajv over the document's components. A response may differ
 * only where ANSWER_DIFFERENCES (tests/api/openapi-differences.ts) lists the difference, with its reason.
 */
import { join } from "node:path";
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { ANSWER_DIFFERENCES, ENGRAM_ONLY_OPERATIONS, matches } from "../api/openapi-differences";

type Schema = Record<string, unknown>;
interface OpenApi {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>>;
  components: { schemas: Record<string, Schema> };
}

export interface RecordedResponse {
  method: string;
  path: string;
  status: number;
  body: unknown;
  /** The body as sent, when it came as text/plain (a bare string or number). */
  text?: string;
}

const document = Bun.YAML.parse(await Bun.file(join(import.meta.dir, "../fixtures/reference-contract.yaml")).text()) as OpenApi;

const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
addFormats(ajv);
// OpenAPI's number formats say how big, not what shape: any integer or number fits.
for (const format of ["int32", "int64", "float", "double"]) ajv.addFormat(format, { type: "number", validate: () => true });
ajv.addSchema({ $id: "contract", components: document.components });

/** Every schema's $refs point into the document added above. */
function pointed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(pointed);
  if (schema === null || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, key === "$ref" && typeof value === "string" ? `contract${value}` : pointed(value)]),
  );
}

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  literalSegments: number;
  responses: Map<string, Schema | undefined>;
}

const OPERATIONS: Operation[] = Object.entries(document.paths).flatMap(([template, item]) =>
  Object.entries(item).map(([method, operation]) => ({
    method: method.toUpperCase(),
    template,
    pattern: new RegExp(`^${template.replace(/[.+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
    literalSegments: template.split("/").filter((segment) => segment && !segment.startsWith("{")).length,
    responses: new Map(
      Object.entries(operation.responses ?? {}).map(([status, response]) => [
        status,
        Object.values(response.content ?? {})[0]?.schema as Schema | undefined,
      ]),
    ),
  })),
);

/** The reference's operation for a request: the matching template with the most fixed segments. */
export function operationOf(method: string, path: string): Operation | undefined {
  if (`${method} ${path}` in ENGRAM_ONLY_OPERATIONS) return undefined;
  return OPERATIONS.filter((operation) => operation.method === method && operation.pattern.test(path)).sort(
    (a, b) => b.literalSegments - a.literalSegments,
  )[0];
}

const validators = new Map<Schema, ValidateFunction>();
function validatorOf(schema: Schema): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(pointed(schema) as Schema);
    validators.set(schema, validate);
  }
  return validate;
}

/** "/note/children/3/id" as ".note.children[].id". */
const dotted = (pointer: string) => pointer.replace(/\/\d+(?=\/|$)/g, "[]").replace(/\//g, ".");

function describeError(error: ErrorObject, body: unknown): string {
  const at = dotted(error.instancePath);
  if (error.keyword === "required") return `${at}.${(error.params as { missingProperty: string }).missingProperty}: missing`;
  if (error.keyword === "type") {
    const value = error.instancePath
      .split("/")
      .slice(1)
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], body);
    const actual = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
    return `${at}: ${actual} here, ${(error.params as { type: string }).type} in the reference`;
  }
  return `${at}: ${error.message}`;
}

/**
 * What in these responses differs from the reference's schemas and is not a listed difference,
 * one line each: "GET /api/notes/{note} 200.note.noteTopology.title: missing". Responses of
 * operations the reference does not describe, or without a schema for their status, are skipped.
 */
export function contractViolations(responses: RecordedResponse[]): string[] {
  const found = new Set<string>();
  for (const response of responses) {
    const operation = operationOf(response.method, response.path);
    const schema = operation?.responses.get(String(response.status));
    if (!operation || !schema || response.status >= 300) continue;
    const validate = validatorOf(schema);
    if (validate(response.body) || (response.text !== undefined && validate(response.text))) continue;
    validate(response.body);
    for (const error of validate.errors ?? []) {
      const line = `${operation.method} ${operation.template} ${response.status}${describeError(error, response.body)}`;
      if (!Object.keys(ANSWER_DIFFERENCES).some((pattern) => matches(pattern, line))) found.add(line);
    }
  }
  return [...found].sort();
}

/** Responses recorded per test server (its URL), read as they arrive. */
const recorded = new Map<string, { responses: RecordedResponse[]; reading: Promise<unknown>[] }>();

/** Starts recording the JSON answers of this server (its URL prefix). */
export function recordResponsesOf(serverUrl: string) {
  recorded.set(serverUrl, { responses: [], reading: [] });
  installFetchRecorder();
}

/** The responses recorded for a server, once every body has been read; recording stops. */
export async function takeResponsesOf(serverUrl: string): Promise<RecordedResponse[]> {
  const entry = recorded.get(serverUrl);
  recorded.delete(serverUrl);
  if (!entry) return [];
  await Promise.allSettled(entry.reading);
  return entry.responses;
}

let installed = false;
/** Wraps fetch so that every answer of a recorded server is seen, however the test called it. */
function installFetchRecorder() {
  if (installed) return;
  installed = true;
  const original = globalThis.fetch;
  const recording = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const response = await original(input, init);
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const entry = [...recorded].find(([base]) => url.startsWith(`${base}/`))?.[1];
    const type = response.headers.get("content-type") ?? "";
    if (entry && /^(application\/json|text\/plain)\b/.test(type)) {
      const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
      const path = new URL(url).pathname;
      const plain = type.startsWith("text/plain");
      entry.reading.push(
        response
          .clone()
          .text()
          .then((text) => {
            let body: unknown = text;
            try {
              body = JSON.parse(text);
            } catch {
              if (!plain) return;
            }
            entry.responses.push({ method, path, status: response.status, body, ...(plain ? { text } : {}) });
          })
          .catch(() => undefined),
      );
    }
    return response;
  };
  globalThis.fetch = Object.assign(recording, original);
}
