import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { addNote, deleteNote, moveNote, showNote, undoDeleteNote, updateDetails, updateTitle } from "../services/notes/note-service";
import { noteDescendants, recentNotes } from "../services/notes/recent-and-descendants";
import { requireUser, type Auth } from "./authentication";
import { core } from "./core";
import { newNoteBody } from "./notebooks";

const noteParams = t.Object({ note: t.Numeric() });

/** The signed-in user when there is one (reading may be allowed to others later: bazaar). */
const optionalUser = (auth: Auth) => (auth.account && auth.user ? requireUser(auth) : undefined);

/** /api/notes and /api/text_content: reading, creating, editing, moving and deleting notes. */
export function notesApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" })
    .use(core(ctx))
    .get("/notes/recent", ({ auth }) => recentNotes(ctx, requireUser(auth)))
    .get("/notes/:note", ({ auth, params }) => showNote(ctx, optionalUser(auth), params.note), { params: noteParams })
    .get("/notes/:note/descendants", ({ auth, params }) => noteDescendants(ctx, optionalUser(auth), params.note), {
      params: noteParams,
    })
    // The spec names the parameter parentNote / referenceNote; Elysia needs one name per position.
    .post("/notes/:note/create", ({ auth, params, body }) =>
      addNote(ctx, requireUser(auth), { under: params.note }, { newTitle: body.newTitle, wikidataId: body.wikidataId ?? undefined }), {
      params: noteParams,
      body: newNoteBody,
    })
    .post("/notes/:note/create-after", ({ auth, params, body }) =>
      addNote(ctx, requireUser(auth), { after: params.note }, { newTitle: body.newTitle, wikidataId: body.wikidataId ?? undefined }), {
      params: noteParams,
      body: newNoteBody,
    })
    .post("/notes/:note/delete", ({ auth, params }) => deleteNote(ctx, requireUser(auth), params.note), { params: noteParams })
    .patch("/notes/:note/undo-delete", ({ auth, params }) => undoDeleteNote(ctx, requireUser(auth), params.note), {
      params: noteParams,
    })
    .post("/notes/move_after/:note/:targetNote/:asFirstChild", ({ auth, params }) =>
      moveNote(ctx, requireUser(auth), params.note, params.targetNote, params.asFirstChild === "true"), {
      params: t.Object({
        note: t.Numeric(),
        targetNote: t.Numeric(),
        asFirstChild: t.Union([t.Literal("true"), t.Literal("false")], { error: "must be true or false" }),
      }),
    })
    .patch("/text_content/:note/title", ({ auth, params, body }) => updateTitle(ctx, optionalUser(auth), params.note, body.newTitle), {
      params: noteParams,
      body: t.Object({ newTitle: t.String({ error: "size must be between 1 and 150" }) }),
    })
    .patch("/text_content/:note/details", ({ auth, params, body }) => updateDetails(ctx, optionalUser(auth), params.note, body.details ?? ""), {
      params: noteParams,
      body: t.Object({ details: t.Optional(t.Union([t.String(), t.Null()])) }),
    });
}
