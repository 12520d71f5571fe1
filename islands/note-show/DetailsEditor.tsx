import { type ClipboardEvent, type MouseEvent, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useKeptCaret } from "../lib/keep-caret";
import type { Autosave } from "../lib/use-autosave";
import type { Layout } from "./rich-mode";
import { useMarkdownChecks } from "./use-markdown-checks";

/** Spec 9: the markdown details textarea grows with its text up to 1000 px, then scrolls. */
const MARKDOWN_MAX_HEIGHT_PX = 1000;
export const RICH_PLACEHOLDER = "Enter note details here...";

export function MarkdownEditor({ autosave, readonly }: { autosave: Autosave; readonly: boolean }) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useKeptCaret(ref, autosave.value); // someone else's change merged in while typing
  // biome-ignore lint/correctness/useExhaustiveDependencies: the value is the trigger: the height is measured on the rendered text.
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    element.style.height = "auto";
    element.style.height = `${Math.min(element.scrollHeight + 2, MARKDOWN_MAX_HEIGHT_PX)}px`;
  }, [autosave.value]);
  return (
    <textarea
      ref={ref}
      className="markdown-editor"
      aria-label="note details (markdown)"
      dir="auto"
      value={autosave.value}
      readOnly={readonly}
      placeholder="Write the details in Markdown..."
      rows={4}
      onChange={(event) => autosave.onChange(event.target.value, autosave.value)}
      onBlur={autosave.flush}
    />
  );
}

type QuillInstance = import("quill").default;
type Phase = "shown" | "loading" | "ready";

/** The stand-in's HTML as the browser writes it back, to tell an edited stand-in from an untouched one. */
function normalizedHtml(host: HTMLElement, html: string): string {
  const template = host.ownerDocument.createElement("template");
  template.innerHTML = html;
  return template.innerHTML;
}

/**
 * The rich editor: Quill with the bubble theme, loaded only when the learner starts editing. Until
 * it is up, the details show as HTML (the server's, while they are the ones it rendered) in an
 * element the browser itself lets people type into (contenteditable, from the server's first
 * paint, before any script has run): a click puts the caret there, keys, an on-screen keyboard or
 * an IME type there, in order, and nothing waits for the editor's code. Focusing or typing in it
 * fetches Quill (about 50 KB compressed); once it is up, Quill takes the details as they were
 * shown, then what was typed meanwhile as the learner's own edit (saved like typing), and the
 * caret where it was: the hand-over is one synchronous step, so no key falls between. The code is
 * fetched a moment earlier when the pointer comes over the details. Read-only details never load
 * it. `startEditing` loads it at once (the learner chose "Edit as rich content").
 *
 * It never saves over Markdown it cannot hold: before it takes a text it checks that writing it
 * back unedited gives the same text (rich-mode/); if not, it stays read-only and calls
 * `onRefuse` with the text (plus anything typed into the stand-in, so nothing is lost), and the
 * note is edited as Markdown.
 */
export function RichEditor({
  autosave,
  readonly,
  initialHtml,
  onRefuse,
  startEditing = false,
}: {
  autosave: Autosave;
  readonly: boolean;
  initialHtml: string;
  onRefuse: (markdown: string, reason: string) => void;
  startEditing?: boolean;
}) {
  const hostRef = useRef<HTMLDivElement>(null);
  const quillRef = useRef<QuillInstance>(null);
  const lastEmitted = useRef(autosave.value);
  const autosaveRef = useRef(autosave);
  autosaveRef.current = autosave;
  const onRefuseRef = useRef(onRefuse);
  onRefuseRef.current = onRefuse;
  // The blocks and blank lines of the Markdown being edited, kept in what the editor writes.
  const layout = useRef<Layout>(undefined);
  const canEdit = !readonly;
  // What shows until the editor is up: the server's HTML, or the current details rendered alike
  // (once marked is loaded; until then what showed before stays).
  const [phase, setPhase] = useState<Phase>(startEditing && canEdit ? "loading" : "shown");
  const checks = useMarkdownChecks(phase === "shown" && !initialHtml && autosave.value !== "");
  const lastShown = useRef({ html: "", value: "" });
  const shown = initialHtml
    ? { html: initialHtml, value: autosave.value }
    : autosave.value === ""
      ? { html: "", value: "" }
      : checks
        ? { html: checks.renderMarkdownSafely(autosave.value), value: autosave.value }
        : lastShown.current;
  lastShown.current = shown;
  // Fixed once editing starts, with the details it shows: React must never rewrite what the
  // learner types into the stand-in, nor what Quill owns.
  const [frozen, setFrozen] = useState(() => (phase === "loading" ? shown : undefined));
  const phaseRef = useRef(phase);
  phaseRef.current = phase;

  function startEditingNow() {
    if (!canEdit || phaseRef.current !== "shown") return;
    phaseRef.current = "loading";
    setFrozen(lastShown.current);
    setPhase("loading");
  }

  // Focused or typed into before the page hydrated: editing has started already.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the island hydrates.
  useEffect(() => {
    const host = hostRef.current;
    if (!host || !canEdit || phaseRef.current !== "shown") return;
    const focused = host.contains(host.ownerDocument.activeElement);
    if (focused || host.innerHTML !== normalizedHtml(host, lastShown.current.html)) startEditingNow();
  }, []);

  useEffect(() => {
    if (phase !== "loading" || !frozen) return;
    let cancelled = false;
    void import("./markdown-convert").then((convert) => {
      const host = hostRef.current;
      if (cancelled || !host) return;
      // The hand-over is one synchronous step, in the editor's chunk (markdown-convert.ts).
      const quill = convert.takeOverStandIn(host, frozen, {
        placeholder: RICH_PLACEHOLDER,
        layout,
        onRefuse: (markdown, reason) => onRefuseRef.current(markdown, reason),
        onEdit: (markdown) => {
          const before = lastEmitted.current;
          lastEmitted.current = markdown;
          autosaveRef.current.onChange(markdown, before);
        },
        onBlur: () => autosaveRef.current.flush(),
        onReady: (ready) => {
          quillRef.current = ready;
          lastEmitted.current = frozen.value;
        },
      });
      // Details changed elsewhere while the editor loaded show once it is ready (the effect below).
      if (quill) setPhase("ready");
    });
    return () => {
      cancelled = true;
    };
  }, [phase, frozen]);

  // A value from elsewhere (undo, someone else's change merged in): show it, the caret kept.
  // This runs after a render, and the learner may have typed since: Quill is first made to tell
  // what it has not told yet (its observer reports keys a moment later), and what it shows is
  // compared with the autosave's value as of now. A render's value may be one the editor has
  // already typed past: "showing" it would take back the keys typed since.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new value or the editor being ready is the trigger; the value is read as of now.
  useEffect(() => {
    const quill = quillRef.current;
    if (!quill || phase !== "ready") return;
    void import("./markdown-convert").then((convert) => {
      quill.update("user");
      const before = lastEmitted.current;
      const value = autosaveRef.current.currentValue();
      if (value === before) return;
      lastEmitted.current = value;
      convert.showMarkdown(quill, before, value);
      if (!convert.holdsExactly(quill, value)) {
        quill.disable();
        onRefuseRef.current(value, convert.RICH_MODE_REASONS.other);
        return;
      }
      layout.current = convert.layoutFor(value);
    });
  }, [autosave.value, phase]);

  /** The pointer is over the details: fetch the editor's code now, so a click finds it (or nearly). */
  function onPointerEnter() {
    if (phaseRef.current === "shown") void import("./markdown-convert").catch(() => {}); // a failed fetch is retried on the click
  }
  function onPaste(event: ClipboardEvent<HTMLDivElement>) {
    if (phaseRef.current === "ready") return;
    // Plain text only, as the editor would take it; the browser inserts it where the caret is.
    event.preventDefault();
    const text = event.clipboardData.getData("text/plain");
    if (text) host().ownerDocument.execCommand("insertText", false, text);
    startEditingNow();
  }
  const host = () => hostRef.current!;
  function onClick(event: MouseEvent<HTMLDivElement>) {
    // A link in the details is edited, not followed, as in the editor.
    if (phaseRef.current !== "ready" && (event.target as Element).closest?.("a")) event.preventDefault();
  }

  const html = (frozen ?? shown).html;
  const standIn = phase !== "ready";
  return (
    <div className="rich-editor">
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the textbox attributes are set only while the role is textbox (the stand-in). */}
      <div
        ref={hostRef}
        className="rich-details"
        dir="auto"
        data-placeholder={RICH_PLACEHOLDER}
        role={standIn ? "textbox" : undefined}
        aria-label={standIn ? "note details" : undefined}
        aria-multiline={standIn ? true : undefined}
        aria-readonly={readonly || undefined}
        aria-busy={phase === "loading" || undefined}
        contentEditable={standIn && canEdit ? true : undefined}
        suppressContentEditableWarning
        {...(canEdit && standIn ? { onPointerEnter, onFocus: startEditingNow, onInput: startEditingNow, onPaste, onClick } : {})}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's rendering of the details or renderMarkdownSafely's, both sanitised.
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </div>
  );
}
