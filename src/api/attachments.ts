import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { attachmentById, attachmentEmbeddedIn, type StoredAttachment } from "../services/vaults/attachments";
import { optionalUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { binaryAnswer } from "./schemas/media";

// An SVG opened on its own could run script in Engram's origin: it is served sandboxed.
const SVG_POLICY = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** The bytes of an attachment, or the range a player asks for (video seeking needs it). */
function answer(attachment: StoredAttachment, range: string | null): Response {
  const headers: Record<string, string> = {
    "content-type": attachment.contentType,
    "cache-control": "private, max-age=31536000, immutable",
    "x-content-type-options": "nosniff",
    "accept-ranges": "bytes",
    "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(attachment.path.split("/").at(-1)!)}`,
  };
  if (attachment.contentType === "image/svg+xml") headers["content-security-policy"] = SVG_POLICY;
  const size = attachment.bytes.byteLength;
  const asked = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
  if (asked && (asked[1] || asked[2])) {
    const start = asked[1] ? Number(asked[1]) : Math.max(0, size - Number(asked[2]));
    const end = asked[1] && asked[2] ? Math.min(Number(asked[2]), size - 1) : size - 1;
    if (start >= size || start > end)
      return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${size}` } });
    const part = attachment.bytes.subarray(start, end + 1);
    return new Response(part, {
      status: 206,
      headers: { ...headers, "content-range": `bytes ${start}-${end}/${size}`, "content-length": String(part.byteLength) },
    });
  }
  return new Response(attachment.bytes, { headers: { ...headers, "content-length": String(size) } });
}

/**
 * The files a notebook's notes embed (images, audio, video, PDF kept from an Obsidian import):
 * GET /api/notes/{note}/attachment?target=<as the embed names it> finds one from the note that
 * embeds it and redirects to its lasting address, /api/attachments/{id}/{name} (a changed file
 * gets a new id, so browsers may keep it). Both for readers of the notebook only.
 */
export function attachmentsApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" })
    .use(core(ctx))
    .get(
      "/notes/:note/attachment",
      async ({ auth, params, query }) => {
        const attachment = await attachmentEmbeddedIn(ctx, optionalUser(auth), params.note, query.target);
        const name = encodeURIComponent(attachment.path.split("/").at(-1)!);
        return new Response(null, {
          status: 302,
          headers: { location: `/api/attachments/${attachment.id}/${name}`, "cache-control": "private, no-cache" },
        });
      },
      {
        access: "public",
        params: t.Object({ note: IdParam }),
        query: t.Object({ target: t.String({ minLength: 1, maxLength: 1000 }) }),
        response: { 302: t.Void({ description: "Redirects to the file's lasting address, /api/attachments/{attachment}/{name}" }) },
      },
    )
    .get(
      "/attachments/:attachment/:name",
      async ({ auth, params, request }) =>
        answer(await attachmentById(ctx, optionalUser(auth), params.attachment), request.headers.get("range")),
      {
        access: "public",
        params: t.Object({ attachment: IdParam, name: t.String() }),
        response: {
          200: binaryAnswer("*/*", "The file's bytes, in the type it was imported as (image, audio, video, PDF)"),
          206: binaryAnswer("*/*", "The range of the file's bytes the Range header asked for"),
          416: t.Void({ description: "The range asked for is outside the file" }),
        },
      },
    );
}
