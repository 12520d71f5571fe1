/** Placeholder: the notebooks page island (being written). */
export default function Notebooks() {
  return <p className="muted">Loading notebooks...</p>;
}
