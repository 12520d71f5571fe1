/** Placeholder: the recent page island (being written). */
export default function RecentNotes() {
  return <p className="muted">Loading...</p>;
}
