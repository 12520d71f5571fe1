import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import {
  allNotebooks,
  assistantSettings,
  notebookDump,
  recreateDefaultAssistant,
  updateDefaultInstructions,
} from "../services/admin/assistant";
import { requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { AssistantSettings, DefaultAssistant } from "./schemas/admin";
import { AdditionalInstructionsBody } from "./schemas/bodies";
import { NotebookDump } from "./schemas/graph";
import { Notebook } from "./schemas/notes";

/**
 * "Manage Assistant": the default additional instructions (beyond the reference, which kept them
 * only per notebook), recreating the default assistant, the notebooks an admin may dump, and the dump.
 */
export function assistantApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" })
    .use(core(ctx))
    .get("/ai/assistant/default", ({ auth }) => assistantSettings(ctx, requireUser(auth)), { access: "admin", response: AssistantSettings })
    .patch("/ai/assistant/default", ({ auth, body }) => updateDefaultInstructions(ctx, requireUser(auth), body), {
      access: "admin",
      response: AssistantSettings,
      body: AdditionalInstructionsBody,
    })
    .post("/ai/assistant/recreate-default", ({ auth }) => recreateDefaultAssistant(ctx, requireUser(auth)), {
      access: "admin",
      response: DefaultAssistant,
    })
    .get("/admin/notebooks", ({ auth }) => allNotebooks(ctx, requireUser(auth)), { access: "admin", response: t.Array(Notebook) })
    .get(
      "/notebooks/:notebook/dump",
      async ({ auth, params, set }) => {
        const dump = await notebookDump(ctx, requireUser(auth), params.notebook);
        set.headers["content-disposition"] = 'attachment; filename="notebook-dump.json"';
        return dump;
      },
      { access: "signed-in", response: NotebookDump, params: t.Object({ notebook: IdParam }) },
    );
}
