import type { QuestionContext } from "../../ai/question-generation";
import type { AppContext } from "../../context";
import { notebookAdditionalInstructions } from "../ai-assistant/notebook-assistant";
import { DEFAULT_GRAPH_TOKEN_LIMIT, graphDescription } from "../graph/build-graph";
import { requireNote } from "../notes/rows";
import type { CurrentUser } from "../users";

/**
 * What the AI is told about a note for its questions: the focus note and its related notes (the
 * graph description, 5000-token budget), as the learner sees them, so notes in notebooks the
 * learner may not read never reach the prompt; with the note's notebook's additional instructions.
 * The caller checks the learner may read the note.
 */
export async function questionContext(ctx: AppContext, noteId: number, learner: CurrentUser): Promise<QuestionContext> {
  return {
    description: await graphDescription(ctx, noteId, DEFAULT_GRAPH_TOKEN_LIMIT, learner),
    additionalInstructions: await notebookAdditionalInstructions(ctx, (await requireNote(ctx, noteId)).notebookId),
  };
}
