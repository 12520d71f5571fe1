import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import {
  catchUpMissingEmbeddings,
  resetNotebookIndex,
  SEMANTIC_HEADER,
  SEMANTIC_PROGRESS_HEADER,
  searchNotes,
  semanticSearchNotes,
  updateNotebookIndex,
} from "../services/search";
import { requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { NoteSearchResults } from "./schemas/notes";

/** Rebuilding a notebook's index answers nothing: the index is up to date when it returns. */
const IndexUpToDate = t.Void({ description: "No content: the notebook's index is up to date" });

/** Longest search key accepted. */
const MAX_SEARCH_KEY = 1000;

const searchTerm = t.Object(
  {
    searchKey: t.String({ maxLength: MAX_SEARCH_KEY, error: `must be a text of at most ${MAX_SEARCH_KEY} characters` }),
    allMyNotebooksAndSubscriptions: t.Optional(t.Union([t.Boolean(), t.Null()], { error: "must be true or false" })),
    allMyCircles: t.Optional(t.Union([t.Boolean(), t.Null()], { error: "must be true or false" })),
  },
  { additionalProperties: true },
);
type SearchTermBody = typeof searchTerm.static;

const term = (body: SearchTermBody) => ({
  searchKey: body.searchKey,
  allMyNotebooksAndSubscriptions: body.allMyNotebooksAndSubscriptions === true,
  allMyCircles: body.allMyCircles === true,
});

const noteParams = t.Object({ note: IdParam });
const notebookParams = t.Object({ notebook: IdParam });

/**
 * Note search (literal and semantic, global and from a note) and the notebook index operations.
 * At start-up, notes without an embedding are queued for one (catchUpMissingEmbeddings).
 */
export function searchApi(ctx: AppContext) {
  return (
    new Elysia({ prefix: "/api" })
      .use(core(ctx))
      .onStart(async () => {
        await catchUpMissingEmbeddings(ctx);
      })
      .post("/notes/search", ({ auth, body }) => searchNotes(ctx, requireUser(auth), term(body)), {
        access: "signed-in",
        response: NoteSearchResults,
        body: searchTerm,
      })
      .post(
        "/notes/semantic-search",
        async ({ auth, body, set }) => {
          const { results, semantic, progress } = await semanticSearchNotes(ctx, requireUser(auth), term(body));
          set.headers[SEMANTIC_HEADER] = semantic;
          if (progress) set.headers[SEMANTIC_PROGRESS_HEADER] = `${progress.embedded}/${progress.total}`;
          return results;
        },
        { access: "signed-in", response: NoteSearchResults, body: searchTerm },
      )
      .post("/notes/:note/search", ({ auth, params, body }) => searchNotes(ctx, requireUser(auth), term(body), params.note), {
        access: "signed-in",
        response: NoteSearchResults,
        params: noteParams,
        body: searchTerm,
      })
      .post(
        "/notes/:note/semantic-search",
        async ({ auth, params, body, set }) => {
          const { results, semantic, progress } = await semanticSearchNotes(ctx, requireUser(auth), term(body), params.note);
          set.headers[SEMANTIC_HEADER] = semantic;
          if (progress) set.headers[SEMANTIC_PROGRESS_HEADER] = `${progress.embedded}/${progress.total}`;
          return results;
        },
        { access: "signed-in", response: NoteSearchResults, params: noteParams, body: searchTerm },
      )
      // Embedding a big notebook takes a while: no idle timeout for these requests.
      .post(
        "/notebooks/:notebook/update-index",
        async ({ auth, params, request, server }) => {
          const current = requireUser(auth);
          server?.timeout(request, 0);
          await updateNotebookIndex(ctx, current, params.notebook);
        },
        { access: "signed-in", response: IndexUpToDate, params: notebookParams },
      )
      .post(
        "/notebooks/:notebook/reset-index",
        async ({ auth, params, request, server }) => {
          const current = requireUser(auth);
          server?.timeout(request, 0);
          await resetNotebookIndex(ctx, current, params.notebook);
        },
        { access: "signed-in", response: IndexUpToDate, params: notebookParams },
      )
  );
}
