import type { ReactNode } from "react";
import { renderMarkdownSafely } from "../markdown";
import { visibleTail } from "./ai-stream";
import type { AiReply, Suggestion } from "./use-ai-reply";

/** "Send message and invite AI to reply": sends what is typed (if anything) and asks the AI (use-ai-reply.ts). */
export function AiReplyButton({ ai, message, onMessageSent }: { ai: AiReply; message: string; onMessageSent: () => void }) {
  return (
    <button type="button" className="button" onClick={() => void ai.invite(message, onMessageSent)} disabled={ai.busy || !!ai.waiting}>
      Send message and invite AI to reply
    </button>
  );
}

/**
 * The AI's reply as it is written, with its status texts, and its suggestions waiting for
 * an answer: shown in the conversation, after its messages. The reply's Markdown is rendered as
 * note details are (raw HTML shown as text, only safe links). Only someone who may edit the note
 * is offered Accept; anyone else reads the suggestion, and may skip it or cancel the reply.
 */
export function AiReplyView({ ai, mayEdit }: { ai: AiReply; mayEdit: boolean }) {
  if (!ai.active) return null;
  return (
    <div className="ai-reply" role="status" aria-live="polite">
      {ai.status && <p className="ai-reply-status">{ai.status}</p>}
      {ai.reply && (
        <div
          className="ai-reply-text markdown"
          dir="auto"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdownSafely escapes raw HTML and keeps only safe URLs.
          dangerouslySetInnerHTML={{ __html: renderMarkdownSafely(ai.reply) }}
        />
      )}
      {ai.error && (
        <p className="ai-reply-error" role="alert">
          {ai.error}
        </p>
      )}
      {ai.waiting?.suggestions.map((suggestion, index) =>
        suggestion.outcome ? null : (
          <ToolSuggestion
            key={suggestion.call.id}
            suggestion={suggestion}
            details={ai.details}
            mayEdit={mayEdit}
            onAccept={() => void ai.accept(index)}
            onSkip={() => void ai.skip(index)}
            onCancel={() => void ai.cancel()}
          />
        ),
      )}
    </div>
  );
}

/** One suggestion: a completion as a diff, a title as text, anything else as raw JSON (no Accept). */
function ToolSuggestion({
  suggestion,
  details,
  mayEdit,
  onAccept,
  onSkip,
  onCancel,
}: {
  suggestion: Suggestion;
  details: string | undefined;
  mayEdit: boolean;
  onAccept: () => void;
  onSkip: () => void;
  onCancel: () => void;
}) {
  const { call, args } = suggestion;
  let body: ReactNode;
  let acceptable = Boolean(args);
  if (call.function.name === "complete_note_details" && args) {
    const deleteFromEnd = Math.max(0, Math.trunc(Number(args.deleteFromEnd) || 0));
    const tail = details === undefined || deleteFromEnd === 0 ? "" : details.slice(Math.max(0, details.length - deleteFromEnd));
    body = (
      <>
        <p>Suggested completion:</p>
        <p className="ai-completion" dir="auto">
          {tail ? <del>{visibleTail(tail)}</del> : "..."}
          <ins>{String(args.completion ?? "")}</ins>
        </p>
      </>
    );
  } else if (call.function.name === "suggest_note_title" && args) {
    body = (
      <>
        <p>Suggested title:</p>
        <p className="ai-title" dir="auto">
          {String(args.newTitle ?? "")}
        </p>
      </>
    );
  } else {
    acceptable = false;
    body = (
      <>
        <p>Unknown tool call: {call.function.name}</p>
        <pre className="ai-raw">{call.function.arguments}</pre>
      </>
    );
  }
  return (
    <div className="ai-suggestion">
      {body}
      {acceptable && !mayEdit && <p className="muted">Only people who may edit this note can accept it.</p>}
      <div className="ai-suggestion-actions">
        {acceptable && mayEdit && (
          <button type="button" className="button primary" onClick={onAccept}>
            Accept
          </button>
        )}
        <button type="button" className="button" onClick={onSkip}>
          Skip
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
