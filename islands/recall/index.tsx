/** Placeholder (being written): the recall page. */
export default function Recall() {
  return <p className="muted">Loading...</p>;
}
