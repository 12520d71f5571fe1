import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, call } from "../api";
import { notePath } from "../notes-queries";
import { Modal } from "../ui/Dialog";
import { AddQuestionForm } from "./AddQuestionForm";
import { QuestionList } from "./QuestionList";
import { deleteQuestion, questionEdited } from "./question-changes";
import { type NoteQuestionsJson, notebookQuestionsQuery, type PredefinedQuestionJson } from "./questions-api";

/**
 * "Notebook Questions" (the notebook's creator, on the notebooks page): every question of the
 * notebook grouped by note, each with an "Approved" switch, Edit and Delete. Approved questions
 * are the ones an assessment may ask; an edited question needs approving again.
 */
export function NotebookQuestionsDialog({
  notebookId,
  notebookTitle,
  onClose,
}: {
  notebookId: number;
  notebookTitle: string;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const query = notebookQuestionsQuery(notebookId);
  const { data: groups, isPending, isError } = useQuery(query);
  const [togglingId, setTogglingId] = useState<number>();
  const [editing, setEditing] = useState<{ question: PredefinedQuestionJson; noteId: number }>();

  const put = (changed: PredefinedQuestionJson) =>
    queryClient.setQueryData(query.queryKey, (old: NoteQuestionsJson[] | undefined) =>
      old?.map((group) => ({ ...group, questions: group.questions.map((q) => (q.id === changed.id ? changed : q)) })),
    );

  /** The switch moves at once; the server's answer then stands (or the old state, when it fails). */
  async function toggle(question: PredefinedQuestionJson) {
    if (togglingId !== undefined) return;
    setTogglingId(question.id);
    put({ ...question, approved: !question.approved });
    try {
      put(await call(api["predefined-questions"]({ id: question.id })["toggle-approval"].post()));
      void queryClient.invalidateQueries({ queryKey: ["note-questions"] });
    } catch {
      put(question); // the API showed why
    } finally {
      setTogglingId(undefined);
    }
  }

  if (editing)
    return (
      <Modal title="Edit Question" onClose={onClose} className="questions-modal">
        <AddQuestionForm
          key={editing.question.id}
          noteId={editing.noteId}
          question={editing.question}
          onCancel={() => setEditing(undefined)}
          onAdded={() => {
            questionEdited(queryClient, editing.question);
            setEditing(undefined);
          }}
        />
      </Modal>
    );
  return (
    <Modal title={`Questions of ${notebookTitle}`} onClose={onClose} className="questions-modal">
      {isPending ? (
        <p className="muted">Loading...</p>
      ) : isError ? (
        <p className="muted">The questions could not be loaded.</p>
      ) : groups.length === 0 ? (
        <p className="empty-state">
          No questions yet. Add them with "Questions for the note" in a note's more options, or let recall make them with the AI.
        </p>
      ) : (
        <div className="notebook-questions">
          {groups.map((group) => (
            <section key={group.note.id} className="notebook-questions-note" aria-label={group.note.title}>
              <h3 dir="auto">
                <a href={notePath(group.note.id)}>{group.note.title}</a>
              </h3>
              <QuestionList
                questions={group.questions}
                onToggleApproval={(q) => void toggle(q)}
                togglingId={togglingId}
                onEdit={(question) => setEditing({ question, noteId: group.note.id })}
                onDelete={(question) => void deleteQuestion(queryClient, question)}
              />
            </section>
          ))}
        </div>
      )}
      <div className="dialog-actions">
        <button type="button" className="button primary" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
