import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import { type NoteAccessoryJson, noteAccessoryQuery } from "../../lib/accessory/queries";
import { CheckboxField, DialogActions, TextField } from "../../lib/forms";
import { Modal } from "../../lib/ui/Dialog";
import { useAccessorySave } from "./use-accessory-save";

const IMAGE_FIELDS = ["uploadImage", "imageUrl", "useParentImage", "imageMask"];

/** "Edit Note Image": an uploaded file, an image URL or the parent's image, and the mask drawn over it. */
export function EditNoteImageDialog({ noteId, onClose }: { noteId: number; onClose: () => void }) {
  const { data: accessory } = useQuery(noteAccessoryQuery(noteId));
  return (
    <Modal title="Edit Note Image" onClose={onClose}>
      {accessory ? <ImageForm noteId={noteId} accessory={accessory} onClose={onClose} /> : <p className="muted">Loading...</p>}
    </Modal>
  );
}

function ImageForm({ noteId, accessory, onClose }: { noteId: number; accessory: NoteAccessoryJson; onClose: () => void }) {
  const [file, setFile] = useState<File>();
  const [removeUpload, setRemoveUpload] = useState(false);
  const [imageUrl, setImageUrl] = useState(accessory.imageUrl ?? "");
  const [useParentImage, setUseParentImage] = useState(accessory.useParentImage);
  const [imageMask, setImageMask] = useState(accessory.imageMask ?? "");
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, saving, save } = useAccessorySave(noteId, onClose, formRef);

  function submit(event: FormEvent) {
    event.preventDefault();
    const form = new FormData();
    // A chosen file replaces the image URL on the server; an empty uploadImage removes the upload.
    if (file) form.append("uploadImage", file);
    else if (removeUpload) form.append("uploadImage", "");
    form.append("imageUrl", imageUrl);
    form.append("useParentImage", String(useParentImage));
    form.append("imageMask", imageMask);
    void save(form);
  }

  const otherErrors = Object.entries(errors).filter(([field]) => !IMAGE_FIELDS.includes(field));
  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-busy={saving || undefined}>
      {otherErrors.length > 0 && (
        <div className="form-message" role="alert">
          {otherErrors.map(([field, message]) => `${field} ${message}`).join("; ")}
        </div>
      )}
      <fieldset className="plain-fieldset" disabled={saving}>
        <TextField
          label="Upload Image"
          name="uploadImage"
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          error={errors.uploadImage}
          onChange={(event) => setFile(event.target.files?.[0])}
        />
        <p className="field-hint">PNG, JPEG, GIF or WebP, at most 5 MiB.</p>
        {accessory.uploadedImage && !file && (
          <CheckboxField label="Remove the uploaded image" name="removeUploadedImage" checked={removeUpload} onChange={setRemoveUpload} />
        )}
        <TextField
          label="Image Url"
          name="imageUrl"
          type="url"
          inputMode="url"
          placeholder="https://..."
          value={imageUrl}
          error={errors.imageUrl}
          onChange={(event) => setImageUrl(event.target.value)}
        />
        <CheckboxField
          label="Use Parent Image"
          name="useParentImage"
          checked={useParentImage}
          error={errors.useParentImage}
          onChange={setUseParentImage}
        />
        <TextField
          label="Image Mask"
          name="imageMask"
          value={imageMask}
          placeholder="x y width height"
          autoComplete="off"
          error={errors.imageMask}
          onChange={(event) => setImageMask(event.target.value)}
        />
        <p className="field-hint">Rectangles to cover, four numbers each in image pixels: x y width height, e.g. "10 20 100 50".</p>
        <DialogActions onCancel={onClose} />
      </fieldset>
    </form>
  );
}
