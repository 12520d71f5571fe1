/** Placeholder (being written): the top bar's "search note" button and dialog. */
export default function SearchNote() {
  return null;
}
