/**
 * How the semantic search endpoints tell the browser whether their answer is semantic (the body
 * stays a NoteSearchResult[] as the API reference says). No imports: the client bundle uses it.
 *
 *   x-engram-semantic: on      the results are the nearest notes by embedding
 *   x-engram-semantic: off     no embedding provider is configured: the results are the literal ones
 *   x-engram-semantic: failed  the provider failed: the results are the literal ones
 *
 * With "on", while some of the searched notes still wait for their first embedding (the index is
 * being built), x-engram-semantic-progress says how many are embedded, as "embedded/total".
 */
export const SEMANTIC_HEADER = "x-engram-semantic";
export const SEMANTIC_PROGRESS_HEADER = "x-engram-semantic-progress";

export type SemanticState = "on" | "off" | "failed";
