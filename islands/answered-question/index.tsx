/** Placeholder (being written): an answered question (/d/answers/{recallPromptId}). */
export default function AnsweredQuestion(_props: { recallPromptId: number }) {
  return <p className="muted">Loading...</p>;
}
