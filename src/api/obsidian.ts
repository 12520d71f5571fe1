import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { startAnkiImport } from "../services/vaults/anki-import";
import { attachmentDisposition, exportNotebookVault } from "../services/vaults/export";
import { awaitImport, startVaultImport } from "../services/vaults/import";
import { requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { prefersAsync } from "./operations";
import { Operation } from "./schemas/operations";
import { AnkiImportReport, DeckUpload, ImportReport, VaultDownload, VaultUpload } from "./schemas/vaults";

/**
 * Obsidian vaults in and out of a notebook (spec 7: GET and POST /notebooks/{notebook}/obsidian),
 * and Anki decks in as new notebooks (POST /notebooks/anki, multipart `file` and `withReviewState`).
 */
export function obsidianApi(ctx: AppContext) {
  return (
    new Elysia({ prefix: "/api/notebooks" })
      .use(core(ctx))
      .get(
        "/:notebook/obsidian",
        async ({ auth, params }) => {
          const vault = await exportNotebookVault(ctx, requireUser(auth), params.notebook);
          return new Response(vault.bytes, {
            headers: {
              "content-type": "application/zip",
              "content-disposition": attachmentDisposition(vault.fileName),
              "content-length": String(vault.bytes.byteLength),
              "cache-control": "no-store",
            },
          });
        },
        { access: "signed-in", response: VaultDownload, params: t.Object({ notebook: IdParam }) },
      )
      // The body is read within the route's limit (request-limits.ts); the file is checked in the service.
      // (The spec names it {notebookId}; one parameter name per path segment keeps the router happy.)
      // A worker imports it; with `Prefer: respond-async` the answer is the operation (202) at once,
      // otherwise the report once the import ended.
      .post(
        "/:notebook/obsidian",
        async ({ auth, params, body, request, set }) => {
          const current = requireUser(auth);
          const { operation, run } = await startVaultImport(ctx, current, params.notebook, (body as { file?: unknown } | undefined)?.file);
          if (prefersAsync(request)) {
            set.status = 202;
            return operation;
          }
          return awaitImport(run);
        },
        {
          access: "signed-in",
          response: { 200: ImportReport, 202: Operation },
          params: t.Object({ notebook: IdParam }),
          body: VaultUpload,
        },
      )
      .post(
        "/anki",
        async ({ auth, body, request, set }) => {
          const current = requireUser(auth);
          const { file, withReviewState } = (body ?? {}) as { file?: unknown; withReviewState?: unknown };
          const { operation, run } = await startAnkiImport(ctx, current, file, withReviewState === "true" || withReviewState === true);
          if (prefersAsync(request)) {
            set.status = 202;
            return operation;
          }
          return awaitImport(run);
        },
        { access: "signed-in", response: { 200: AnkiImportReport, 202: Operation }, body: DeckUpload },
      )
  );
}
