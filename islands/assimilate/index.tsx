/** Placeholder (being written): the assimilation page. */
export default function Assimilate() {
  return <p className="muted">Loading...</p>;
}
