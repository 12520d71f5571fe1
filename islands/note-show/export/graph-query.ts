import { queryOptions } from "@tanstack/react-query";
import { api, call } from "../../lib/api";

export type { BareNote, FocusNote, GraphRAGResult } from "../../../src/services/graph/bare-note";

/** Export graph token limit (spec sections 5 and 9). */
export const TOKEN_LIMIT = { min: 100, max: 10000, step: 100, initial: 5000 } as const;

/** A note's graph within a token budget (GET /api/notes/{note}/graph?tokenLimit=). */
export const noteGraphQuery = (noteId: number, tokenLimit: number) =>
  queryOptions({
    queryKey: ["note-graph", noteId, tokenLimit],
    queryFn: () => call(api.notes({ note: noteId }).graph.get({ query: { tokenLimit } })),
  });

/** The token limit typed in the field, when it is a whole number in the allowed range. */
export function validTokenLimit(text: string): number | undefined {
  if (!/^\d+$/.test(text.trim())) return undefined;
  const value = Number(text);
  return value >= TOKEN_LIMIT.min && value <= TOKEN_LIMIT.max ? value : undefined;
}
