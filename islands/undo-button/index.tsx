/** Placeholder: the top-bar undo button (being written). */
export default function UndoButton() {
  return null;
}
