import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { changeLinkType, createLink, moveUnder } from "../services/links/link-service";
import { requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { NoteRealms } from "./schemas/notes";

const linkTypeBody = t.Object({ linkType: t.String({ error: "must be one of the link types" }) });
const sourceAndTarget = t.Object({ sourceNote: IdParam, targetNote: IdParam });

/** /api/links: creating links, changing their type, and moving a note under another. */
export function linksApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api/links" })
    .use(core(ctx))
    .post(
      "/create/:sourceNote/:targetNote",
      ({ auth, params, body }) => createLink(ctx, requireUser(auth), params.sourceNote, params.targetNote, body.linkType),
      { access: "signed-in", response: NoteRealms, params: sourceAndTarget, body: linkTypeBody },
    )
    .post(
      "/move/:sourceNote/:targetNote",
      ({ auth, params, body }) => moveUnder(ctx, requireUser(auth), params.sourceNote, params.targetNote, body.asFirstChild === true),
      {
        access: "signed-in",
        response: NoteRealms,
        params: sourceAndTarget,
        body: t.Object({ asFirstChild: t.Optional(t.Boolean({ error: "must be true or false" })) }),
      },
    )
    .post("/:link", ({ auth, params, body }) => changeLinkType(ctx, requireUser(auth), params.link, body.linkType), {
      access: "signed-in",
      response: NoteRealms,
      params: t.Object({ link: IdParam }),
      body: linkTypeBody,
    });
}
