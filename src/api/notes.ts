import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { DEFAULT_GRAPH_TOKEN_LIMIT, noteGraph, TOKEN_LIMIT_MESSAGE } from "../services/graph/build-graph";
import { noteInfo, updateRecallSetting } from "../services/memory/trackers";
import { noteChangeStream } from "../services/notes/note-changes";
import {
  addNote,
  deleteNote,
  listChildren,
  moveNote,
  showNote,
  undoDeleteNote,
  updateDetails,
  updateTitle,
} from "../services/notes/note-service";
import { MAX_CHILDREN_PAGE_SIZE } from "../services/notes/presenters";
import { descendantCount, noteDescendants, recentNotes } from "../services/notes/recent-and-descendants";
import { updateWikidataId } from "../services/wikidata/association";
import { optionalUser, requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { newNoteBody } from "./notebooks";
import { GraphRAGResult } from "./schemas/graph";
import { Integer } from "./schemas/integer";
import { NoteInfo } from "./schemas/memory";
import { ChildrenPage, NoteChangeStream, NoteCreationResult, NoteRealm, NoteRealms, RedirectToNoteResponse } from "./schemas/notes";

const noteParams = t.Object({ note: IdParam });

/** ?limit= of a page of children: digits here; the service checks the range (1 to MAX_CHILDREN_PAGE_SIZE). */
const ChildrenLimitParam = t
  .Transform(t.String({ pattern: "^[1-9][0-9]{0,5}$", error: `must be from 1 to ${MAX_CHILDREN_PAGE_SIZE}` }))
  .Decode((text) => Number(text))
  .Encode((n) => String(n));

/** The revision of the text a save was made from: a whole number, or absent (the text is written as sent). */
const BaseRevision = t.Optional(t.Integer({ minimum: 0, maximum: 2 ** 31, error: "must be a revision number" }));

const WIKIDATA_ID_MESSAGE = "The wikidata Id should be Q<numbers>";

/**
 * /api/notes and /api/text_content (the spec's note and note-creation areas): reading, creating,
 * editing, moving and deleting notes, a note's info, recall setting, graph and Wikidata id.
 * Searching (search.ts) and accessories (accessories.ts) have their own files.
 */
export function notesApi(ctx: AppContext) {
  return (
    new Elysia({ prefix: "/api" })
      .use(core(ctx))
      .get("/notes/recent", ({ auth }) => recentNotes(ctx, requireUser(auth)), { access: "signed-in", response: NoteRealms })
      .get("/notes/:note", ({ auth, params }) => showNote(ctx, optionalUser(auth), params.note), {
        access: "public",
        response: NoteRealm,
        params: noteParams,
      })
      // The note's children page by page after the realm's first page (an Engram addition): ?after=<the
      // last child listed so far, the realm's moreChildrenAfter>&limit=<1..200, default 40>.
      .get(
        "/notes/:note/children",
        ({ auth, params, query }) => listChildren(ctx, optionalUser(auth), params.note, { after: query.after, limit: query.limit }),
        {
          access: "public",
          response: ChildrenPage,
          params: noteParams,
          query: t.Object({ after: t.Optional(IdParam), limit: t.Optional(ChildrenLimitParam) }),
        },
      )
      .get("/notes/:note/descendants", ({ auth, params }) => noteDescendants(ctx, optionalUser(auth), params.note), {
        access: "public",
        response: GraphRAGResult,
        params: noteParams,
      })
      // Not in the reference API: how many notes a delete takes along, for its confirmation.
      .get("/notes/:note/descendant-count", ({ auth, params }) => descendantCount(ctx, optionalUser(auth), params.note), {
        access: "public",
        response: t.Object({ count: Integer() }),
        params: noteParams,
      })
      // The spec names the parameter parentNote / referenceNote; Elysia needs one name per position.
      .post(
        "/notes/:note/create",
        ({ auth, params, body }) =>
          addNote(ctx, requireUser(auth), { under: params.note }, { newTitle: body.newTitle, wikidataId: body.wikidataId ?? undefined }),
        { access: "signed-in", response: NoteCreationResult, params: noteParams, body: newNoteBody },
      )
      .post(
        "/notes/:note/create-after",
        ({ auth, params, body }) =>
          addNote(ctx, requireUser(auth), { after: params.note }, { newTitle: body.newTitle, wikidataId: body.wikidataId ?? undefined }),
        { access: "signed-in", response: NoteCreationResult, params: noteParams, body: newNoteBody },
      )
      .post("/notes/:note/delete", ({ auth, params }) => deleteNote(ctx, requireUser(auth), params.note), {
        access: "signed-in",
        response: NoteRealms,
        params: noteParams,
      })
      .patch("/notes/:note/undo-delete", ({ auth, params }) => undoDeleteNote(ctx, requireUser(auth), params.note), {
        access: "signed-in",
        response: NoteRealm,
        params: noteParams,
      })
      .post(
        "/notes/move_after/:note/:targetNote/:asFirstChild",
        ({ auth, params }) => moveNote(ctx, requireUser(auth), params.note, params.targetNote, params.asFirstChild === "true"),
        {
          access: "signed-in",
          response: NoteRealms,
          params: t.Object({
            note: IdParam,
            targetNote: IdParam,
            asFirstChild: t.Union([t.Literal("true"), t.Literal("false")], { error: "must be true or false" }),
          }),
        },
      )
      // A save may say which revision of the text it was made from (baseRevision, an Engram addition):
      // what others saved since is merged in, or the answer is 409 when both changed the same place.
      .patch(
        "/text_content/:note/title",
        ({ auth, params, body }) => updateTitle(ctx, requireUser(auth), params.note, body.newTitle, body.baseRevision),
        {
          access: "signed-in",
          response: NoteRealm,
          params: noteParams,
          body: t.Object({ newTitle: t.String({ error: "size must be between 1 and 150" }), baseRevision: BaseRevision }),
        },
      )
      .patch(
        "/text_content/:note/details",
        ({ auth, params, body }) => updateDetails(ctx, requireUser(auth), params.note, body.details ?? "", body.baseRevision),
        {
          access: "signed-in",
          response: NoteRealm,
          params: noteParams,
          body: t.Object({ details: t.Optional(t.Union([t.String(), t.Null()])), baseRevision: BaseRevision }),
        },
      )
      // Server-sent events: the note's text revisions now and after every save (services/notes/note-changes.ts).
      .get("/notes/:note/changes", ({ auth, params }) => noteChangeStream(ctx, optionalUser(auth), params.note), {
        access: "public",
        response: NoteChangeStream,
        params: noteParams,
      })
      .get("/notes/:note/note-info", ({ auth, params }) => noteInfo(ctx, requireUser(auth), params.note), {
        access: "signed-in",
        response: NoteInfo,
        params: noteParams,
      })
      .post("/notes/:note/review-setting", ({ auth, params, body }) => updateRecallSetting(ctx, requireUser(auth), params.note, body), {
        access: "signed-in",
        response: RedirectToNoteResponse,
        params: noteParams,
        body: t.Object(
          {
            level: t.Optional(t.Integer({ error: "must be from 0 to 6" })),
            rememberSpelling: t.Optional(t.Boolean({ error: "must be true or false" })),
            skipMemoryTracking: t.Optional(t.Boolean({ error: "must be true or false" })),
          },
          { additionalProperties: true },
        ),
      })
      // GraphRAGResult, for export and AI context.
      .get(
        "/notes/:note/graph",
        ({ auth, params, query }) => noteGraph(ctx, optionalUser(auth), params.note, query.tokenLimit ?? DEFAULT_GRAPH_TOKEN_LIMIT),
        {
          access: "public",
          response: GraphRAGResult,
          params: noteParams,
          query: t.Object({
            // The range is checked by the service (a schema range error loses the field name).
            tokenLimit: t.Optional(t.Integer({ error: TOKEN_LIMIT_MESSAGE })),
          }),
        },
      )
      .post(
        "/notes/:note/updateWikidataId",
        ({ auth, params, body }) => updateWikidataId(ctx, requireUser(auth), params.note, body.wikidataId),
        {
          access: "signed-in",
          response: NoteRealm,
          params: noteParams,
          body: t.Object({ wikidataId: t.String({ error: WIKIDATA_ID_MESSAGE }) }, { additionalProperties: true }),
        },
      )
  );
}
