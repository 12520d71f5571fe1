import { Elysia, t } from "elysia";
import { IdParam } from "./ids";
import type { AppContext } from "../context";
import { addNotebook, notebooksOfUser, notesOfNotebook, showNotebook, updateNotebookSettings } from "../services/notebooks";
import { requireUser } from "./authentication";
import { core } from "./core";

export const newNoteBody = t.Object(
  {
    newTitle: t.String({ error: "size must be between 1 and 150" }),
    wikidataId: t.Optional(t.Union([t.String(), t.Null()])),
  },
  { additionalProperties: true },
);

const notebookParams = t.Object({ notebook: IdParam });

/** /api/notebooks: the user's notebooks, creating one, its settings and its notes. */
export function notebooksApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api/notebooks" })
    .use(core(ctx))
    .get("/", ({ auth }) => notebooksOfUser(ctx, requireUser(auth)))
    .post("/create", async ({ auth, body }) => {
      const { noteId } = await addNotebook(ctx, requireUser(auth), { newTitle: body.newTitle, wikidataId: body.wikidataId ?? undefined });
      return { noteId };
    }, { body: newNoteBody })
    .get("/:notebook", ({ auth, params }) => showNotebook(ctx, auth.user && requireUser(auth), params.notebook), {
      params: notebookParams,
    })
    .post("/:notebook", ({ auth, params, body }) => updateNotebookSettings(ctx, requireUser(auth), params.notebook, body), {
      params: notebookParams,
      body: t.Object(
        {
          skipMemoryTrackingEntirely: t.Optional(t.Boolean({ error: "must be true or false" })),
          numberOfQuestionsInAssessment: t.Optional(
            t.Union([t.Integer(), t.Null()], { error: "must be a whole number from 0 to 1000" }),
          ),
          certificateExpiry: t.Optional(t.String({ error: 'must look like "1y 1m 1d" (years, months, days)' })),
        },
        { additionalProperties: true },
      ),
    })
    .get("/:notebook/notes", ({ auth, params }) => notesOfNotebook(ctx, auth.user && requireUser(auth), params.notebook), {
      params: notebookParams,
    });
}
