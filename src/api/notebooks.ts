import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { addNotebook, notebooksOfUser, notesOfNotebook, showNotebook, updateNotebookSettings } from "../services/notebooks";
import { oncePerRequestId } from "../services/request-ids";
import { shareToBazaar } from "../services/sharing/bazaar";
import { moveNotebookToCircle } from "../services/sharing/circles";
import { requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { Note, Notebook, NotebooksViewedByUser, RedirectToNoteResponse } from "./schemas/notes";

export const newNoteBody = t.Object(
  {
    newTitle: t.String({ error: "size must be between 1 and 150" }),
    wikidataId: t.Optional(t.Union([t.String(), t.Null()])),
  },
  { additionalProperties: true },
);

/** A new notebook, with the id the browser gives one submission so that a retry creates it once. */
export const newNotebookBody = t.Composite([newNoteBody, t.Object({ requestId: t.Optional(t.String()) })], { additionalProperties: true });

const notebookParams = t.Object({ notebook: IdParam });

export { oncePerRequestId } from "../services/request-ids";

/** /api/notebooks: the user's notebooks, creating one, its settings, its notes, sharing it and moving it to a circle. */
export function notebooksApi(ctx: AppContext) {
  const createOnce = oncePerRequestId<{ noteId: number }>(ctx, "create-notebook");
  return new Elysia({ prefix: "/api/notebooks" })
    .use(core(ctx))
    .get("/", ({ auth }) => notebooksOfUser(ctx, requireUser(auth)), { access: "signed-in", response: NotebooksViewedByUser })
    .post(
      "/create",
      ({ auth, body }) => {
        const current = requireUser(auth);
        return createOnce(current.user.id, body.requestId?.slice(0, 100), async () => {
          const { noteId } = await addNotebook(ctx, current, { newTitle: body.newTitle, wikidataId: body.wikidataId ?? undefined });
          return { noteId };
        });
      },
      { access: "signed-in", body: newNotebookBody, response: RedirectToNoteResponse },
    )
    .get("/:notebook", ({ auth, params }) => showNotebook(ctx, auth.user && requireUser(auth), params.notebook), {
      access: "public",
      response: Notebook,
      params: notebookParams,
    })
    .post("/:notebook", ({ auth, params, body }) => updateNotebookSettings(ctx, requireUser(auth), params.notebook, body), {
      access: "signed-in",
      response: Notebook,
      params: notebookParams,
      body: t.Object(
        {
          skipMemoryTrackingEntirely: t.Optional(t.Boolean({ error: "must be true or false" })),
          numberOfQuestionsInAssessment: t.Optional(t.Union([t.Integer(), t.Null()], { error: "must be a whole number from 0 to 1000" })),
          certificateExpiry: t.Optional(t.String({ error: 'must look like "1y 1m 1d" (years, months, days)' })),
        },
        { additionalProperties: true },
      ),
    })
    .post("/:notebook/share", ({ auth, params }) => shareToBazaar(ctx, requireUser(auth), params.notebook), {
      access: "signed-in",
      response: Notebook,
      params: notebookParams,
    })
    .patch(
      "/:notebook/move-to-circle/:circle",
      ({ auth, params }) => moveNotebookToCircle(ctx, requireUser(auth), params.notebook, params.circle),
      { access: "signed-in", response: Notebook, params: t.Object({ notebook: IdParam, circle: IdParam }) },
    )
    .get("/:notebook/notes", ({ auth, params }) => notesOfNotebook(ctx, auth.user && requireUser(auth), params.notebook), {
      access: "public",
      response: t.Array(Note),
      params: notebookParams,
    });
}
