/**
 * Compares two OpenAPI documents on the operations both have (same method, same path once the
 * parameter names are set aside): path parameter names, the request body's fields and the
 * 200 answer's fields, their types and whether they are required. Answers one line per
 * difference, e.g. "GET /api/notes/{note} 200.note.details: missing".
 */
type Schema = { [key: string]: unknown };
export interface OpenApi {
  paths: Record<string, Record<string, Schema>>;
  components?: { schemas?: Record<string, Schema> };
}

const METHODS = ["get", "post", "put", "patch", "delete"];
const shape = (path: string) => path.replace(/\{[^}]+\}/g, "{}").replace(/\/$/, "");

/** Operations by "METHOD /shape", with the document's own path. */
export function operations(doc: OpenApi): Map<string, { path: string; operation: Schema }> {
  const found = new Map<string, { path: string; operation: Schema }>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) found.set(`${method.toUpperCase()} ${shape(path)}`, { path, operation });
    }
  }
  return found;
}

function resolve(doc: OpenApi, schema: Schema | undefined, seen: Set<string>): Schema | undefined {
  let current = schema;
  while (current && typeof current.$ref === "string") {
    const name = current.$ref.split("/").at(-1)!;
    if (seen.has(name)) return undefined;
    seen.add(name);
    current = doc.components?.schemas?.[name];
  }
  return current;
}

/** The schema without null in a union ("integer or null" is an integer that may be absent). */
function nonNull(doc: OpenApi, schema: Schema | undefined, seen: Set<string>): Schema | undefined {
  const resolved = resolve(doc, schema, seen);
  const options = resolved?.anyOf ?? resolved?.oneOf;
  if (Array.isArray(options)) {
    const rest = (options as Schema[]).filter((option) => option.type !== "null");
    return rest.length === 1 ? nonNull(doc, rest[0], seen) : resolved;
  }
  if (Array.isArray(resolved?.type)) {
    const rest = (resolved.type as string[]).filter((type) => type !== "null");
    return rest.length === 1 ? { ...resolved, type: rest[0] } : resolved;
  }
  return resolved;
}

function kind(schema: Schema | undefined): string {
  if (!schema) return "any";
  if (schema.type === "integer" || schema.type === "number") return "number";
  if (typeof schema.type === "string") return schema.type;
  if (schema.properties) return "object";
  return "any";
}

function compareSchemas(
  reference: OpenApi,
  ours: OpenApi,
  theirs: Schema | undefined,
  mine: Schema | undefined,
  at: string,
  out: string[],
  seen: [Set<string>, Set<string>] = [new Set(), new Set()],
) {
  const a = nonNull(reference, theirs, new Set(seen[0]));
  const b = nonNull(ours, mine, new Set(seen[1]));
  if (!a || !b) return;
  const [ka, kb] = [kind(a), kind(b)];
  if (ka !== kb && ka !== "any" && kb !== "any") {
    out.push(`${at}: ${kb} here, ${ka} in the reference`);
    return;
  }
  const nextSeen = (s: Schema | undefined, set: Set<string>) => {
    const copy = new Set(set);
    if (s && typeof s.$ref === "string") copy.add(s.$ref.split("/").at(-1)!);
    return copy;
  };
  const seenNext: [Set<string>, Set<string>] = [nextSeen(theirs, seen[0]), nextSeen(mine, seen[1])];
  if (ka === "array") {
    compareSchemas(reference, ours, a.items as Schema, b.items as Schema, `${at}[]`, out, seenNext);
    return;
  }
  if (ka !== "object" || !a.properties || !b.properties) return;
  const theirProps = a.properties as Record<string, Schema>;
  const myProps = b.properties as Record<string, Schema>;
  const theirRequired = new Set((a.required as string[] | undefined) ?? []);
  const myRequired = new Set((b.required as string[] | undefined) ?? []);
  for (const [name, schema] of Object.entries(theirProps)) {
    if (!(name in myProps)) {
      out.push(`${at}.${name}: missing`);
      continue;
    }
    if (theirRequired.has(name) && !myRequired.has(name)) out.push(`${at}.${name}: optional here, required in the reference`);
    compareSchemas(reference, ours, schema, myProps[name], `${at}.${name}`, out, seenNext);
  }
  for (const name of Object.keys(myProps)) if (!(name in theirProps)) out.push(`${at}.${name}: added`);
}

const bodyOf = (operation: Schema) => {
  const content = (operation.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)?.content ?? {};
  return (content["application/json"] ?? content["multipart/form-data"] ?? Object.values(content)[0])?.schema;
};
const answerOf = (operation: Schema) => {
  const content = (operation.responses as Record<string, { content?: Record<string, { schema?: Schema }> }> | undefined)?.["200"]?.content;
  return content ? Object.values(content)[0]?.schema : undefined;
};
const pathNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

/** Every difference between the reference and ours on the operations both have. */
export function differences(reference: OpenApi, ours: OpenApi): { shared: string[]; differences: string[] } {
  const theirs = operations(reference);
  const mine = operations(ours);
  const shared = [...theirs.keys()].filter((key) => mine.has(key)).sort();
  const out: string[] = [];
  for (const key of shared) {
    const a = theirs.get(key)!;
    const b = mine.get(key)!;
    const [theirNames, myNames] = [pathNames(a.path), pathNames(b.path)];
    if (theirNames.join() !== myNames.join())
      out.push(`${key}: path parameters ${myNames.join(", ")} here, ${theirNames.join(", ")} in the reference`);
    if (bodyOf(a.operation) && bodyOf(b.operation))
      compareSchemas(reference, ours, bodyOf(a.operation), bodyOf(b.operation), `${key} body`, out);
    if (answerOf(b.operation)) compareSchemas(reference, ours, answerOf(a.operation), answerOf(b.operation), `${key} 200`, out);
  }
  return { shared, differences: out.sort() };
}
