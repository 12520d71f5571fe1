import type { AppContext } from "../../context";
import { ValidationError } from "../errors";
import { type NoteRow, requireNoteWithNotebook } from "../notes/rows";
import { authorizeRead, ReadableNotes, type Reader } from "../policies";
import type { CurrentUser } from "../users";
import { type GraphRAGResult, uriAndTitle } from "./bare-note";
import { loadGraphNeighbourhood } from "./load-neighbourhood";
import { Neighbourhood, NotLoaded } from "./neighbourhood";
import { GraphResultBuilder, PriorityLayer } from "./priority-layer";
import { layerOneHandlers, layerTwoHandlers } from "./relationships";

export type { BareNote, FocusNote, GraphRAGResult, RelationToFocusNote } from "./bare-note";

/** The token budget of the graph when none is asked for (spec: tokenLimit default 5000). */
export const DEFAULT_GRAPH_TOKEN_LIMIT = 5000;
/** Bounds of tokenLimit on the API (the export dialog offers 100 to 10000). */
export const MIN_GRAPH_TOKEN_LIMIT = 1;
export const MAX_GRAPH_TOKEN_LIMIT = 100_000;
export const TOKEN_LIMIT_MESSAGE = `must be between ${MIN_GRAPH_TOKEN_LIMIT} and ${MAX_GRAPH_TOKEN_LIMIT}`;

/**
 * The focus note and the notes related to it, as the reader may see them, filled by priority
 * until the token budget (for the whole result, focus note first) is spent. The reader must be
 * allowed to read the focus note now (401/403 otherwise, 404 for an unknown note); deleted notes
 * and notes the reader may not read never appear.
 */
export async function buildGraph(
  ctx: AppContext,
  reader: Reader | ReadableNotes,
  focusNoteId: number,
  tokenLimit = DEFAULT_GRAPH_TOKEN_LIMIT,
): Promise<GraphRAGResult> {
  const { note: focus, notebook } = await requireNoteWithNotebook(ctx, focusNoteId);
  const hood = new Neighbourhood(ctx, reader instanceof ReadableNotes ? reader : await ReadableNotes.of(ctx, reader));
  await authorizeRead(ctx, hood.readable.reader, notebook);
  await loadGraphNeighbourhood(hood, focus);
  // The layers read the neighbourhood synchronously; should they reach a row the loading above
  // did not foresee, it is loaded and the graph built again (the answer is the same).
  for (;;) {
    try {
      return runLayers(hood, focus, tokenLimit);
    } catch (error) {
      if (!(error instanceof NotLoaded)) throw error;
      await hood.load(error.request);
    }
  }
}

function runLayers(hood: Neighbourhood, focus: NoteRow, tokenLimit: number): GraphRAGResult {
  const builder = new GraphResultBuilder(focus, hood, hood.ancestors(focus).map(uriAndTitle), tokenLimit);

  // Layers 3 and 4 start empty: layer 2's handlers fill them as they hand out candidates.
  const layer4 = new PriorityLayer(2);
  const layer3 = new PriorityLayer(2);
  layer3.nextLayer = layer4;
  const layer2 = new PriorityLayer(3, layerTwoHandlers(hood, focus, layer3, layer4));
  layer2.nextLayer = layer3;
  const layer1 = new PriorityLayer(3, layerOneHandlers(hood, focus));
  layer1.nextLayer = layer2;
  layer1.run(builder);
  return builder.build();
}

/** GET /notes/{note}/graph: the graph of a note the user may read; tokenLimit is a whole number from 1 to 100000. */
export async function noteGraph(
  ctx: AppContext,
  current: CurrentUser | undefined,
  noteId: number,
  tokenLimit = DEFAULT_GRAPH_TOKEN_LIMIT,
): Promise<GraphRAGResult> {
  if (!Number.isInteger(tokenLimit) || tokenLimit < MIN_GRAPH_TOKEN_LIMIT || tokenLimit > MAX_GRAPH_TOKEN_LIMIT) {
    throw new ValidationError({ tokenLimit: TOKEN_LIMIT_MESSAGE });
  }
  return buildGraph(ctx, current, noteId, tokenLimit);
}

/** The text given to the AI (question generation, evaluation): a header, then the pretty JSON. */
export function describeGraph(graph: GraphRAGResult): string {
  return `Focus Note and the notes related to it:\n${JSON.stringify(graph, null, 2)}\n`;
}

/** The graph description of a note for AI prompts, as the reader may read it (refused when the reader may not read the note). */
export async function graphDescription(ctx: AppContext, focusNoteId: number, tokenLimit: number, reader: CurrentUser): Promise<string> {
  return describeGraph(await buildGraph(ctx, reader, focusNoteId, tokenLimit));
}
