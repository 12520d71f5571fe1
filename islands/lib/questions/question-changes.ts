import type { QueryClient } from "@tanstack/react-query";
import { api, call } from "../api";
import { confirmPopup, showToast } from "../ui-store";
import type { PredefinedQuestionJson } from "./questions-api";

/** Both question lists (a note's and a notebook's) are asked for again after a change. */
function refreshQuestionLists(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: ["note-questions"] });
  void queryClient.invalidateQueries({ queryKey: ["notebook-questions"] });
}

/** After an edit: the lists follow, and a toast says it is saved (and, if it was approved, that it needs approval again). */
export function questionEdited(queryClient: QueryClient, before: PredefinedQuestionJson) {
  refreshQuestionLists(queryClient);
  showToast(before.approved ? "Question saved. It needs approving again before an assessment asks it." : "Question saved.", "success");
}

/** "Delete": asks first, deletes, and says so. Answers whether it was deleted. */
export async function deleteQuestion(queryClient: QueryClient, question: PredefinedQuestionJson): Promise<boolean> {
  if (!(await confirmPopup(`Delete the question "${question.multipleChoicesQuestion.stem}"?`))) return false;
  try {
    await call(api["predefined-questions"]({ id: question.id }).delete.post());
  } catch {
    return false; // the toast says why
  }
  refreshQuestionLists(queryClient);
  showToast("Question deleted.", "success");
  return true;
}
