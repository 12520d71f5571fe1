import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Modal } from "../ui/Dialog";
import { showToast } from "../ui-store";
import { AddQuestionForm } from "./AddQuestionForm";
import { QuestionList } from "./QuestionList";
import { deleteQuestion, questionEdited } from "./question-changes";
import { noteQuestionsQuery, type PredefinedQuestionJson } from "./questions-api";

/**
 * "Questions for the note" (the note's "more options"): the note's questions, each with Edit and
 * Delete, and "Add Question"; adding or editing turns the dialog into the question form until the
 * question is saved or the form cancelled.
 */
export function NoteQuestionsDialog({ noteId, onClose }: { noteId: number; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { data: questions, isPending, isError } = useQuery(noteQuestionsQuery(noteId));
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<PredefinedQuestionJson>();

  return (
    <Modal
      title={editing ? "Edit Question" : adding ? "Add Question" : "Questions for the note"}
      onClose={onClose}
      className="questions-modal"
    >
      {editing ? (
        <AddQuestionForm
          key={editing.id}
          noteId={noteId}
          question={editing}
          onCancel={() => setEditing(undefined)}
          onAdded={() => {
            questionEdited(queryClient, editing);
            setEditing(undefined);
          }}
        />
      ) : adding ? (
        <AddQuestionForm
          noteId={noteId}
          onCancel={() => setAdding(false)}
          onAdded={(added) => {
            queryClient.setQueryData(noteQuestionsQuery(noteId).queryKey, (old) => [...(old ?? []), added]);
            void queryClient.invalidateQueries({ queryKey: ["notebook-questions"] });
            showToast("Question added.", "success");
            setAdding(false);
          }}
        />
      ) : (
        <>
          {isPending ? (
            <p className="muted">Loading...</p>
          ) : isError ? (
            <p className="muted">The questions could not be loaded.</p>
          ) : questions.length === 0 ? (
            <p className="empty-state">No questions for this note yet.</p>
          ) : (
            <QuestionList questions={questions} onEdit={setEditing} onDelete={(question) => void deleteQuestion(queryClient, question)} />
          )}
          <div className="dialog-actions">
            <button type="button" className="button" onClick={onClose}>
              Close
            </button>
            <button type="button" className="button primary" onClick={() => setAdding(true)}>
              Add Question
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}
