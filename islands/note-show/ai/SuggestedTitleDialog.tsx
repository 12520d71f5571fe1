import { Modal } from "../../lib/ui/Dialog";

/** The AI's title suggestion, with Accept when it differs from the current title (ai/SuggestTitle.tsx). */
export function SuggestedTitleDialog({
  title,
  currentTitle,
  onAccept,
  onClose,
}: {
  title: string | null;
  currentTitle: string;
  onAccept: (title: string) => void;
  onClose: () => void;
}) {
  return (
    <Modal title="Suggested title" onClose={onClose}>
      {title && title !== currentTitle ? (
        <p className="suggested-title" dir="auto">
          {title}
        </p>
      ) : (
        <p className="muted">The AI has no better title to suggest.</p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
        {title && title !== currentTitle && (
          <button
            type="button"
            className="button primary"
            onClick={() => {
              onAccept(title);
              onClose();
            }}
          >
            Accept
          </button>
        )}
      </div>
    </Modal>
  );
}
