import { type FormEvent, useRef, useState } from "react";
import { ApiError, api, call } from "../../lib/api";
import { TextField } from "../../lib/forms";
import { Modal } from "../../lib/ui/Dialog";
import { useAccessorySave } from "../accessory/use-accessory-save";

const PROBLEM = "There is a problem";
const MAX_PROMPT_LENGTH = 4000;

/** The generated PNG as a file for the accessory upload. */
function pngFile(b64: string): File {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return new File([bytes], "generated-image.png", { type: "image/png" });
}

/**
 * "Generate Image with DALL-E": a prompt (the note's title to start with) goes to
 * POST /api/ai/generate-image; the PNG is previewed, and "Use as note image" uploads it through
 * the note's accessory (as "Edit Note Image" does). Any failure shows "There is a problem" on the
 * prompt ("AI is not configured" when that is the reason).
 */
export function GenerateImageDialog({ noteId, noteTitle, onClose }: { noteId: number; noteTitle: string; onClose: () => void }) {
  const [prompt, setPrompt] = useState(noteTitle);
  const [image, setImage] = useState<string>();
  const [error, setError] = useState<string>();
  const [generating, setGenerating] = useState(false);
  const inFlight = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const { errors: saveErrors, saving, save } = useAccessorySave(noteId, onClose, formRef);

  async function generate(event: FormEvent) {
    event.preventDefault();
    if (inFlight.current) return;
    if (!prompt.trim() || prompt.length > MAX_PROMPT_LENGTH) {
      setError(`Prompt must be 1 to ${MAX_PROMPT_LENGTH} characters`);
      return;
    }
    inFlight.current = true;
    setGenerating(true);
    setError(undefined);
    try {
      const { b64encoded } = await call(api.ai["generate-image"].post(prompt), { silent: true });
      setImage(b64encoded);
    } catch (failure) {
      setError(failure instanceof ApiError && failure.message === "AI is not configured" ? failure.message : PROBLEM);
    } finally {
      inFlight.current = false;
      setGenerating(false);
    }
  }

  function applyImage() {
    if (!image) return;
    const form = new FormData();
    form.append("uploadImage", pngFile(image));
    void save(form);
  }

  const saveError = Object.values(saveErrors)[0];
  return (
    <Modal title="Generate Image with DALL-E" onClose={onClose}>
      <form ref={formRef} onSubmit={generate} noValidate aria-busy={generating || saving || undefined}>
        <fieldset className="plain-fieldset" disabled={generating || saving}>
          <TextField
            label="Prompt"
            name="prompt"
            value={prompt}
            error={error}
            autoComplete="off"
            onChange={(event) => setPrompt(event.target.value)}
          />
          {image && (
            <figure className="generated-image">
              {/* biome-ignore lint/a11y/noRedundantAlt: the name says it is the generated image for that prompt, which the dialog's tests look for. */}
              <img src={`data:image/png;base64,${image}`} alt={`Generated image for "${prompt}"`} />
            </figure>
          )}
          {saveError && (
            <div className="form-message" role="alert">
              {saveError}
            </div>
          )}
          <div className="dialog-actions">
            <button type="button" className="button" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className={`button${image ? "" : " primary"}`}>
              {generating ? "Generating..." : image ? "Regenerate" : "Generate"}
            </button>
            {image && (
              <button type="button" className="button primary" onClick={applyImage}>
                Use as note image
              </button>
            )}
          </div>
        </fieldset>
      </form>
    </Modal>
  );
}
