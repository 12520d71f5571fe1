/**
 * The tools Engram offers outside assistants over MCP. Each acts as the token's user
 * through the same services as the web API, so it can never do more than that user can.
 * Answers are short texts (JSON where the assistant needs the data); failures are tool errors
 * with a human message, never a stack.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { isAiConfigured } from "../../ai/client";
import type { AppContext } from "../../context";
import { DomainError, ValidationError } from "../errors";
import { recordFailure } from "../failure-reports";
import { DEFAULT_GRAPH_TOKEN_LIMIT, MAX_GRAPH_TOKEN_LIMIT, MIN_GRAPH_TOKEN_LIMIT, noteGraph } from "../graph/build-graph";
import { assimilationCount } from "../memory/assimilation";
import { recallOverview } from "../memory/recall-list";
import { notebooksOfUser } from "../notebooks";
import { createNote, editableNote, readNote, updateDetails, updateTitle } from "../notes/note-service";
import type { NoteJson } from "../notes/presenters";
import { shortDetailsOf } from "../notes/presenters";
import { requireNotebook } from "../notes/rows";
import { MAX_DETAILS_LENGTH, MAX_TITLE_LENGTH, validDetails, validTitle } from "../notes/validation";
import { ReadableNotes } from "../policies";
import { isValidTimeZone } from "../scheduling/time-windows";
import { literalSearch, type SearchHit } from "../search/literal";
import { searchScope } from "../search/scope";
import { semanticSearch } from "../search/semantic";
import type { CurrentUser } from "../users";
import { editableNoteTitled } from "./notes-by-title";

export const NO_RELEVANT_NOTE = "No relevant note found.";
export const UNEXPECTED_ERROR = "An unexpected error occurred. It has been reported.";
/** How many notes find_most_relevant_note answers at most. */
const MAX_FOUND = 5;
/** Semantic hits farther than this (cosine distance) are not "relevant" enough to offer. */
const RELEVANT_SEMANTIC_DISTANCE = 0.5;
const MAX_QUERY_LENGTH = 1000;

const noteId = z
  .number()
  .int()
  .positive()
  .max(10 ** 15 - 1)
  .describe("The id of an Engram note (as given by find_most_relevant_note, list_notebooks or get_note)");

const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });
const json = (value: unknown): CallToolResult => text(JSON.stringify(value, null, 2));

/** The human message of a refusal or bad input; unexpected errors are reported to the admins and not described. */
export function humanMessage(ctx: AppContext, error: unknown): string {
  if (error instanceof ValidationError)
    return Object.entries(error.errors)
      .map(([field, message]) => `${field}: ${message}`)
      .join("; ");
  if (error instanceof DomainError) return error.message;
  // Recorded at once on SQLite; the message need not wait for it (it never rejects).
  void recordFailure(ctx, error);
  console.error(error);
  return UNEXPECTED_ERROR;
}

/** Runs a tool's body; a thrown error becomes an MCP tool error with a human message. */
async function answer(ctx: AppContext, run: () => CallToolResult | Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    return { content: [{ type: "text", text: humanMessage(ctx, error) }], isError: true };
  }
}

/** Title of each notebook's head note, by notebook id. */
async function notebookTitles(ctx: AppContext, notebookIds: number[]): Promise<Map<number, string>> {
  const titles = new Map<number, string>();
  for (const id of new Set(notebookIds)) {
    const headId = (await requireNotebook(ctx, id)).headNoteId;
    const head = headId ? await ctx.stores.notes.noteById(headId) : undefined;
    titles.set(id, head?.title ?? "");
  }
  return titles;
}

/** Literal matches first, then semantic ones (when an embedding provider is configured) that are close enough. */
async function relevantNotes(ctx: AppContext, current: CurrentUser, query: string) {
  const scope = await searchScope(ctx, current, { searchKey: query });
  const hits = new Map<number, SearchHit>();
  for (const hit of await literalSearch(ctx, scope, query)) hits.set(hit.noteId, hit);
  if (isAiConfigured(ctx)) {
    try {
      for (const hit of await semanticSearch(ctx, scope, query)) {
        if (hit.distance > RELEVANT_SEMANTIC_DISTANCE) continue;
        const known = hits.get(hit.noteId);
        if (!known || known.distance > hit.distance) hits.set(hit.noteId, hit);
      }
    } catch (error) {
      console.error("Semantic search failed; answering literal matches only:", error);
    }
  }
  const best = [...hits.values()].sort((a, b) => a.distance - b.distance || a.noteId - b.noteId).slice(0, MAX_FOUND);
  // Hits are related notes: only those the user may read now (an index may lag behind a move).
  const rows = (await ReadableNotes.of(ctx, current)).filter(await ctx.stores.notes.notesByIds(best.map((hit) => hit.noteId)));
  const notebooks = await notebookTitles(
    ctx,
    rows.map((row) => row.notebookId),
  );
  return rows.map((row) => ({
    noteId: row.id,
    title: row.title,
    snippet: shortDetailsOf(row.details),
    notebook: notebooks.get(row.notebookId) ?? "",
  }));
}

const topologyTitle = (note: Pick<NoteJson, "noteTopology">) => note.noteTopology.titleOrPredicate;

/** get_note's answer: the note, its parent, children, links and inbound links. */
async function describeNote(ctx: AppContext, current: CurrentUser, id: number) {
  // Every child and link: an agent reading a note must not be handed the note page's first page only.
  const { realm, ancestors, readonly } = await readNote(ctx, current, id, { childrenLimit: "all" });
  const parent = ancestors.at(-1);
  const children = realm.children ?? [];
  return {
    id: realm.id,
    title: realm.note.noteTopology.titleOrPredicate,
    details: realm.note.details,
    notebook: realm.notebook?.title ?? "",
    parent: parent ? { id: parent.id, title: parent.title } : null,
    ...(realm.note.deletedAt ? { deleted: true } : {}),
    ...(readonly ? { readonly: true } : {}),
    children: children.filter((child) => !child.noteTopology.linkType).map((child) => ({ id: child.id, title: topologyTitle(child) })),
    links: children
      .filter((child) => child.noteTopology.linkType)
      .map((link) => ({
        id: link.id,
        type: link.noteTopology.linkType,
        to: link.noteTopology.objectNoteTopology
          ? { id: link.noteTopology.objectNoteTopology.id, title: link.noteTopology.objectNoteTopology.titleOrPredicate }
          : null,
      })),
    linkedFrom: (realm.inboundReferences ?? []).map((link) => ({
      id: link.id,
      type: link.noteTopology.linkType,
      from: link.noteTopology.parentOrSubjectNoteTopology
        ? { id: link.noteTopology.parentOrSubjectNoteTopology.id, title: link.noteTopology.parentOrSubjectNoteTopology.titleOrPredicate }
        : null,
    })),
  };
}

/** The details after an update: replaced, appended to (after a blank line), or unchanged. */
function newDetails(current: string, details: string | undefined, appendDetails: string | undefined): string | undefined {
  if (details !== undefined && appendDetails !== undefined) {
    throw new ValidationError({ appendDetails: "give either details (to replace them) or appendDetails (to add to them), not both" });
  }
  if (details !== undefined) return validDetails(details);
  if (appendDetails !== undefined)
    return validDetails(current.trim() ? `${current.replace(/\s+$/, "")}\n\n${appendDetails}` : appendDetails);
  return undefined;
}

const titleSchema = z.string().min(1).max(MAX_TITLE_LENGTH);
const detailsSchema = z.string().max(MAX_DETAILS_LENGTH);

/** What the assistant reads about each tool and its input schema: built once, shared by every request. */
export const TOOL_CONFIGS = {
  find_most_relevant_note: {
    title: "Find the most relevant note",
    description:
      "Searches the user's Engram notes (titles and details, literal and semantic) and answers the best matches " +
      `as JSON: noteId, title, a snippet of the details and the notebook. Answers "${NO_RELEVANT_NOTE}" when nothing matches. ` +
      "Use it to find a note's id before get_note, get_note_graph, add_note or update_note.",
    inputSchema: { query: z.string().min(1).max(MAX_QUERY_LENGTH).describe("Words to look for, e.g. a title or a topic") },
    annotations: { readOnlyHint: true },
  },
  get_note_graph: {
    title: "Get a note's graph",
    description:
      "The note and the notes related to it (parent, children, siblings, links, notes linking to it...), each with its " +
      "relationToFocusNote, as JSON (the GraphRAG context that Engram's export gives). tokenLimit bounds the size of the answer.",
    inputSchema: {
      noteId,
      tokenLimit: z
        .number()
        .int()
        .min(MIN_GRAPH_TOKEN_LIMIT)
        .max(MAX_GRAPH_TOKEN_LIMIT)
        .optional()
        .describe(`Approximate size budget of the answer in tokens (default ${DEFAULT_GRAPH_TOKEN_LIMIT})`),
    },
    annotations: { readOnlyHint: true },
  },
  add_note: {
    title: "Add a note",
    description:
      "Creates a note as the last child of a parent note the user may edit. Name the parent by parentNoteId, or by " +
      "parentTitle (its exact title; when several notes have that title the error lists them with their ids). " +
      "details is the new note's text (Markdown).",
    inputSchema: {
      parentNoteId: noteId.optional().describe("The id of the parent note"),
      parentTitle: z.string().min(1).max(MAX_TITLE_LENGTH).optional().describe("The exact title of the parent note"),
      newTitle: titleSchema.describe("The title of the new note"),
      details: detailsSchema.optional().describe("The details of the new note (Markdown)"),
    },
  },
  update_note: {
    title: "Update a note",
    description:
      "Changes a note the user may edit: a new title, new details (replacing them) or appendDetails (added after the " +
      "current details). Give at least one.",
    inputSchema: {
      noteId,
      newTitle: titleSchema.optional().describe("The new title"),
      details: detailsSchema.optional().describe("The new details, replacing the current ones (Markdown)"),
      appendDetails: detailsSchema.optional().describe("Text to add at the end of the current details (Markdown)"),
    },
    annotations: { idempotentHint: false },
  },
  list_notebooks: {
    title: "List notebooks",
    description: "The user's notebooks as JSON: title, the id of its head note (the note at its top) and the start of its details.",
    inputSchema: {},
    annotations: { readOnlyHint: true },
  },
  get_note: {
    title: "Get a note",
    description: "A note as JSON: title, details, notebook, parent, children, links to other notes and links from them.",
    inputSchema: { noteId },
    annotations: { readOnlyHint: true },
  },
  get_recall_status: {
    title: "Get recall status",
    description:
      "How many notes the user has to recall now and to assimilate (learn) today, e.g. to say " +
      '"you have 12 notes to recall". The day is counted in timeZone (default UTC).',
    inputSchema: { timeZone: z.string().max(100).optional().describe("An IANA time zone such as Europe/Paris") },
    annotations: { readOnlyHint: true },
  },
};

/** Each tool's handler, acting as `current`. */
export function engramTools(
  ctx: AppContext,
  current: CurrentUser,
): Record<keyof typeof TOOL_CONFIGS, (input: never) => Promise<CallToolResult>> {
  return {
    find_most_relevant_note: ({ query }: { query: string }) =>
      answer(ctx, async () => {
        const found = await relevantNotes(ctx, current, query);
        return found.length === 0 ? text(NO_RELEVANT_NOTE) : json(found);
      }),
    get_note_graph: ({ noteId: id, tokenLimit }: { noteId: number; tokenLimit?: number }) =>
      answer(ctx, async () => json(await noteGraph(ctx, current, id, tokenLimit ?? DEFAULT_GRAPH_TOKEN_LIMIT))),
    add_note: (input: { parentNoteId?: number; parentTitle?: string; newTitle: string; details?: string }) =>
      answer(ctx, async () => {
        if ((input.parentNoteId === undefined) === (input.parentTitle === undefined)) {
          throw new ValidationError({ parentNoteId: "give either parentNoteId or parentTitle" });
        }
        // Checked before anything is written, so a refused note leaves nothing half-made.
        validTitle(input.newTitle);
        const details = input.details === undefined ? undefined : validDetails(input.details);
        const parent =
          input.parentNoteId !== undefined
            ? await editableNote(ctx, current, input.parentNoteId)
            : await editableNoteTitled(ctx, current, input.parentTitle!, "parentTitle");
        const { created } = await createNote(ctx, current, { under: parent.id }, { newTitle: input.newTitle });
        if (details) await updateDetails(ctx, current, created.id, details);
        return text(
          `Added "${created.note.noteTopology.titleOrPredicate}" (note id ${created.id}) under "${parent.title}" (note id ${parent.id}).`,
        );
      }),
    update_note: (input: { noteId: number; newTitle?: string; details?: string; appendDetails?: string }) =>
      answer(ctx, async () => {
        if (input.newTitle === undefined && input.details === undefined && input.appendDetails === undefined) {
          throw new ValidationError({ newTitle: "give newTitle, details or appendDetails" });
        }
        const note = await editableNote(ctx, current, input.noteId);
        if (input.newTitle !== undefined) validTitle(input.newTitle);
        const details = newDetails(note.details, input.details, input.appendDetails);
        const realm = input.newTitle !== undefined ? await updateTitle(ctx, current, note.id, input.newTitle) : undefined;
        const updated = details !== undefined ? await updateDetails(ctx, current, note.id, details) : realm!;
        return text(`Updated "${updated.note.noteTopology.titleOrPredicate}" (note id ${updated.id}).`);
      }),
    list_notebooks: () =>
      answer(ctx, async () => {
        const { notebooks } = await notebooksOfUser(ctx, current);
        if (notebooks.length === 0) return text("You have no notebooks yet.");
        return json(notebooks.map((n) => ({ notebookId: n.id, title: n.title, headNoteId: n.headNoteId, shortDetails: n.shortDetails })));
      }),
    get_note: ({ noteId: id }: { noteId: number }) => answer(ctx, async () => json(await describeNote(ctx, current, id))),
    get_recall_status: ({ timeZone }: { timeZone?: string }) =>
      answer(ctx, async () => {
        const zone = timeZone ?? "UTC";
        if (!isValidTimeZone(zone)) throw new ValidationError({ timeZone: "must be an IANA time zone such as Europe/Paris" });
        const toRecall = (await recallOverview(ctx, current, zone)).toRepeatCount;
        const toAssimilate = (await assimilationCount(ctx, current, zone)).dueCount;
        const notes = (n: number) => `${n} ${n === 1 ? "note" : "notes"}`;
        return text(
          `You have ${notes(toRecall)} to recall and ${notes(toAssimilate)} to assimilate today.\n` +
            JSON.stringify({ toRecall, toAssimilate }),
        );
      }),
  };
}

/** The markdown of a note for the engram://note/{id} resource. */
export async function noteResourceText(ctx: AppContext, current: CurrentUser, id: number): Promise<string> {
  const note = await describeNote(ctx, current, id);
  const lines = [`# ${note.title}`, ""];
  if (note.parent) lines.push(`Parent: ${note.parent.title} (engram://note/${note.parent.id})`, "");
  if (note.details.trim()) lines.push(note.details, "");
  if (note.children.length > 0) lines.push("Children:", ...note.children.map((c) => `- ${c.title} (engram://note/${c.id})`), "");
  return lines.join("\n");
}
