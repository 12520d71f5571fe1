import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { circlesOf, createCircle, createNotebookInCircle, joinCircle, showCircle } from "../services/sharing/circles";
import { requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { newNotebookBody, oncePerRequestId } from "./notebooks";
import { Circle, RedirectToNoteResponse } from "./schemas/notes";
import { CircleForUserView } from "./schemas/people";

const circleParams = t.Object({ circle: IdParam });

/** /api/circles: my circles, creating and joining one, a circle's page data and its new notebooks. */
export function circlesApi(ctx: AppContext) {
  const createOnce = oncePerRequestId<{ noteId: number }>(ctx, "create-circle-notebook");
  return (
    new Elysia({ prefix: "/api/circles" })
      .use(core(ctx))
      .get("/", ({ auth }) => circlesOf(ctx, requireUser(auth)), { access: "signed-in", response: t.Array(Circle) })
      // The name is checked by the service: blank or too long is a field error on "name".
      .post("/", ({ auth, body }) => createCircle(ctx, requireUser(auth), body.name), {
        access: "signed-in",
        response: Circle,
        body: t.Object({ name: t.Optional(t.Unknown()) }, { additionalProperties: true }),
      })
      .post("/join", ({ auth, body }) => joinCircle(ctx, requireUser(auth), body.invitationCode), {
        access: "signed-in",
        response: Circle,
        body: t.Object({ invitationCode: t.Optional(t.Unknown()) }, { additionalProperties: true }),
      })
      .get("/:circle", ({ auth, params }) => showCircle(ctx, requireUser(auth), params.circle), {
        access: "signed-in",
        response: CircleForUserView,
        params: circleParams,
      })
      .post(
        "/:circle/notebooks",
        ({ auth, params, body }) => {
          const current = requireUser(auth);
          // A double-submitted dialog (same request id) makes one notebook, as on the notebooks page.
          return createOnce(current.user.id, body.requestId?.slice(0, 100), () =>
            createNotebookInCircle(ctx, current, params.circle, { newTitle: body.newTitle, wikidataId: body.wikidataId ?? undefined }),
          );
        },
        { access: "signed-in", response: RedirectToNoteResponse, params: circleParams, body: newNotebookBody },
      )
  );
}
