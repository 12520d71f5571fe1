import { useState } from "react";
import { api, call } from "../api";
import { Modal } from "../ui/Dialog";
import { MessageInput } from "./MessageInput";

/** Spec 9: what a learner usually wants to ask about a question, one click each. */
export const QUICK_MESSAGES = [
  "Why is my answer wrong?",
  "I think the question is wrong. Please check.",
  "Please explain the question and answer to me.",
  "Why are other choices incorrect?",
];

/** "Start a conversation about this question": the first message (typed or a quick one), then the message center. */
export function QuestionConversationButton({ recallPromptId }: { recallPromptId: number }) {
  const [open, setOpen] = useState(false);
  const [sending, setSending] = useState(false);
  async function start(message: string) {
    setSending(true);
    try {
      const conversation = await call(api.conversation["recall-prompt"]({ recallPrompt: recallPromptId }).post({ message }));
      window.location.assign(`/d/message-center/${conversation.id}`);
    } catch {
      setSending(false);
    }
  }
  return (
    <>
      <button type="button" className="button primary conversation-button" onClick={() => setOpen(true)}>
        Start a conversation about this question
      </button>
      {open && (
        <Modal title="Start a conversation about this question" onClose={() => setOpen(false)}>
          <div className="quick-messages">
            {QUICK_MESSAGES.map((message) => (
              <button key={message} type="button" className="button small" disabled={sending} onClick={() => void start(message)}>
                {message}
              </button>
            ))}
          </div>
          <MessageInput onSend={start} sending={sending} />
        </Modal>
      )}
    </>
  );
}
