import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Modal } from "../ui/Dialog";
import { showToast } from "../ui-store";
import { AddQuestionForm } from "./AddQuestionForm";
import { QuestionList } from "./QuestionList";
import { noteQuestionsQuery } from "./questions-api";

/**
 * "Questions for the note" (the note's "more options"): the note's questions, and "Add Question"
 * which turns the dialog into the add-question form until the question is added or cancelled.
 */
export function NoteQuestionsDialog({ noteId, onClose }: { noteId: number; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { data: questions, isPending, isError } = useQuery(noteQuestionsQuery(noteId));
  const [adding, setAdding] = useState(false);

  return (
    <Modal title={adding ? "Add Question" : "Questions for the note"} onClose={onClose} className="questions-modal">
      {adding ? (
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
            <QuestionList questions={questions} />
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
