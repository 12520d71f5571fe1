import { queryOptions, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, call } from "../lib/api";
import { QuestionConversationButton } from "../lib/conversations/QuestionConversation";
import { SuggestFineTuningDialog } from "../lib/questions/SuggestFineTuningDialog";
import { AnsweredQuestionView } from "../lib/recall/AnsweredQuestionView";
import type { AnsweredQuestionJson } from "../lib/recall/recall-prompt-types";

/** GET /api/recall-prompts/{id}: the answered question, or null while it is unanswered (empty body). */
export const answeredQuestionQuery = (recallPromptId: number) =>
  queryOptions({
    queryKey: ["answered-question", recallPromptId],
    queryFn: async (): Promise<AnsweredQuestionJson | null> =>
      (await call(api["recall-prompts"]({ recallPrompt: recallPromptId }).get())) ?? null,
  });

/** The page /d/answers/{recallPromptId}: an answered question and a button to talk about it. */
export default function AnsweredQuestion({ recallPromptId }: { recallPromptId: number }) {
  const { data, isPending, isError } = useQuery(answeredQuestionQuery(recallPromptId));
  const [suggesting, setSuggesting] = useState(false);
  return (
    <div className="answered-question-page">
      <h1>Answered question</h1>
      {isPending ? (
        <p className="muted">Loading...</p>
      ) : isError ? (
        <p className="empty-state">This question cannot be shown.</p>
      ) : data === null ? (
        <p className="empty-state">This question has not been answered yet.</p>
      ) : (
        <>
          <AnsweredQuestionView answered={data} />
          <button type="button" className="button" onClick={() => setSuggesting(true)}>
            Suggest for fine-tuning
          </button>
          {suggesting && (
            <SuggestFineTuningDialog
              questionId={data.predefinedQuestion.id}
              question={data.predefinedQuestion.multipleChoicesQuestion}
              onClose={() => setSuggesting(false)}
            />
          )}
          <QuestionConversationButton recallPromptId={data.recallPromptId} />
        </>
      )}
    </div>
  );
}
