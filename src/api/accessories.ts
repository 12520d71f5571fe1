import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { imageForReader, showNoteAccessory, updateNoteAccessories } from "../services/accessories/accessory-service";
import { optionalUser, requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { binaryAnswer } from "./schemas/media";
import { NoteAccessory } from "./schemas/notes";

const noteParams = t.Object({ note: IdParam });

/**
 * NoteAccessoriesDTO as multipart fields (JSON with the same names works too). The fields are
 * checked one by one in the service, which answers a message per field.
 */
const accessoriesBody = t.Optional(
  t.Object({
    url: t.Optional(t.Unknown()),
    imageUrl: t.Optional(t.Unknown()),
    imageMask: t.Optional(t.Unknown()),
    useParentImage: t.Optional(t.Unknown()),
    uploadImage: t.Optional(t.Unknown()),
  }),
);

/** Note accessories (URL, image with mask) and the uploaded images they show. */
export function accessoriesApi(ctx: AppContext) {
  return (
    new Elysia({ prefix: "/api" })
      .use(core(ctx))
      .get("/notes/:note/accessory", ({ auth, params }) => showNoteAccessory(ctx, optionalUser(auth), params.note), {
        access: "public",
        response: NoteAccessory,
        params: noteParams,
      })
      .patch("/notes/:note", ({ auth, params, body }) => updateNoteAccessories(ctx, requireUser(auth), params.note, body), {
        access: "signed-in",
        response: NoteAccessory,
        params: noteParams,
        body: accessoriesBody,
      })
      // Image ids never change their bytes (a new upload gets a new id), so browsers may keep them.
      .get(
        "/images/:image/:name",
        async ({ auth, params }) => {
          const image = await imageForReader(ctx, optionalUser(auth), params.image);
          return new Response(image.bytes, {
            headers: {
              "content-type": image.contentType,
              "content-length": String(image.bytes.byteLength),
              "cache-control": "private, max-age=31536000, immutable",
              "x-content-type-options": "nosniff",
            },
          });
        },
        {
          access: "public",
          response: binaryAnswer("image/*", "The image's bytes, in the type it was uploaded or fetched as"),
          params: t.Object({ image: IdParam, name: t.String() }),
        },
      )
  );
}
