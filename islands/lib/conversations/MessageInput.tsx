import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { useElementId } from "../island-id";

const MAX_ROWS = 5;

/**
 * The send box (spec 5): one row growing up to five, trimmed, never sent empty; Enter sends,
 * Shift+Enter starts a new line. `extra` renders more buttons (the AI's) that receive the text.
 */
export function MessageInput({
  onSend,
  sending,
  extra,
  placeholder = "Write a message",
  autoFocus = false,
}: {
  onSend: (message: string) => Promise<unknown>;
  sending?: boolean;
  extra?: (text: string, clear: () => void) => ReactNode;
  placeholder?: string;
  /** Takes the focus as it appears (opened by a button that asks for a message). */
  autoFocus?: boolean;
}) {
  const [text, setText] = useState("");
  const box = useRef<HTMLTextAreaElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as it appears.
  useEffect(() => {
    if (autoFocus) box.current?.focus();
  }, []);
  const id = useElementId("message-input");
  const trimmed = text.trim();
  const rows = Math.min(MAX_ROWS, Math.max(1, text.split("\n").length));
  async function send(event?: FormEvent) {
    event?.preventDefault();
    if (!trimmed || sending) return;
    await onSend(trimmed);
    setText("");
  }
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  }
  return (
    <form className="message-input" onSubmit={send}>
      <label htmlFor={id} className="visually-hidden">
        Message
      </label>
      <textarea
        ref={box}
        id={id}
        rows={rows}
        dir="auto"
        value={text}
        placeholder={placeholder}
        maxLength={10_000}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="message-input-actions">
        <button type="submit" className="button primary" disabled={!trimmed || sending}>
          Send message
        </button>
        {extra?.(trimmed, () => setText(""))}
      </div>
    </form>
  );
}
