/**
 * One-shot AI actions on a note: a title suggestion for
 * the note's editors, and an image generated from a prompt for any signed-in user.
 */
import { generateImageBase64 } from "../../ai/image-generation";
import { askForTitle } from "../../ai/title-suggestion";
import type { AppContext } from "../../context";
import { UnauthorizedError, ValidationError } from "../errors";
import { noteDescription } from "../predefined-questions/note-description";
import { editableNote } from "../predefined-questions/note-questions";
import type { CurrentUser } from "../users";
import { assistantInstructions, notebookAdditionalInstructions } from "./notebook-assistant";

/** Longest image prompt accepted (DALL-E 3 takes 4,000 characters). */
export const MAX_IMAGE_PROMPT_LENGTH = 4000;

/**
 * POST /ai/suggest-title/{note} → {title}: the model's suggestion for the note's title, with the
 * note's description and the notebook's additional instructions; null when it made none. Editors
 * only (the suggestion is for changing the title); nothing is saved.
 */
export async function suggestNoteTitle(
  ctx: AppContext,
  current: CurrentUser | undefined,
  noteId: number,
): Promise<{ title: string | null }> {
  if (!current) throw new UnauthorizedError("Please sign in");
  const { note, notebook } = await editableNote(ctx, current, noteId);
  const title = await askForTitle(ctx, {
    // The default assistant runs title suggestions (§5.5); the notebook's instructions come with the request.
    instructions: await assistantInstructions(ctx, null),
    noteDescription: await noteDescription(ctx, current, note),
    notebookInstructions: await notebookAdditionalInstructions(ctx, notebook.id),
  });
  return { title };
}

export const IMAGE_PROMPT_MESSAGE = `must be text of 1 to ${MAX_IMAGE_PROMPT_LENGTH} characters`;

/** POST /ai/generate-image (body: the prompt as a JSON string) → {b64encoded}: a PNG, not saved. */
export async function generateImage(ctx: AppContext, current: CurrentUser | undefined, prompt: string): Promise<{ b64encoded: string }> {
  if (!current) throw new UnauthorizedError("Please sign in");
  const trimmed = prompt.trim();
  if (!trimmed || trimmed.length > MAX_IMAGE_PROMPT_LENGTH) throw new ValidationError({ prompt: IMAGE_PROMPT_MESSAGE });
  return { b64encoded: await generateImageBase64(ctx, trimmed) };
}
