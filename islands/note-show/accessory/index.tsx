import { useQuery } from "@tanstack/react-query";
import { noteAccessoryQuery } from "../../lib/accessory/queries";
import { lazyShown } from "../../lib/lazy";

/** The image with its mask: fetched for the notes that have one. */
const ImageWithMask = lazyShown(() => import("../../lib/accessory/ImageWithMask").then((m) => m.ImageWithMask));

/** The note's accessory on the note page: its image with the mask overlay, and its URL as a link. */
export function NoteAccessoryView({ noteId }: { noteId: number }) {
  const { data: accessory } = useQuery(noteAccessoryQuery(noteId));
  if (!accessory) return null;
  const image = accessory.imageWithMask;
  if (!image && !accessory.url) return null;
  return (
    <div className="note-accessory">
      {image && <ImageWithMask src={image.noteImage} mask={image.imageMask} />}
      {accessory.url && (
        <p className="note-url">
          <a href={accessory.url} target="_blank" rel="noopener noreferrer">
            {accessory.url}
          </a>
        </p>
      )}
    </div>
  );
}
