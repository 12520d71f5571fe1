import { type ClipboardEvent, type KeyboardEvent, type MouseEvent, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { Autosave } from "../lib/use-autosave";
import type { CaretMark, PendingKey } from "./markdown-convert";
import type { Layout } from "./rich-mode";
import { useMarkdownChecks } from "./use-markdown-checks";

/** Spec 9: the markdown details textarea grows with its text up to 1000 px, then scrolls. */
const MARKDOWN_MAX_HEIGHT_PX = 1000;
export const RICH_PLACEHOLDER = "Enter note details here...";

export function MarkdownEditor({ autosave, readonly }: { autosave: Autosave; readonly: boolean }) {
  const ref = useRef<HTMLTextAreaElement>(null);
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
      onChange={(event) => autosave.onChange(event.target.value)}
      onBlur={autosave.flush}
    />
  );
}

type QuillInstance = import("quill").default;
type Phase = "shown" | "loading" | "ready";

const REPLAYED_KEYS = new Set(["Enter", "Backspace", "Delete", "Home", "End", "ArrowLeft", "ArrowRight"]);

/** Where a click at (x, y) falls in the shown details, as a mark the editor can find again. */
function caretMarkAt(host: HTMLElement, x: number, y: number): CaretMark {
  const doc = host.ownerDocument as Document & {
    caretPositionFromPoint?: (x: number, y: number) => { offsetNode: Node; offset: number } | null;
  };
  let node: Node | undefined;
  let offset = 0;
  const position = doc.caretPositionFromPoint?.(x, y);
  if (position) {
    node = position.offsetNode;
    offset = position.offset;
  } else {
    const range = doc.caretRangeFromPoint?.(x, y);
    if (range) {
      node = range.startContainer;
      offset = range.startOffset;
    }
  }
  if (!node || !host.contains(node)) return "end";
  const before = doc.createRange();
  before.setStart(host, 0);
  before.setEnd(node, offset);
  const text = before.toString();
  return { visible: text.replace(/\s/g, "").length, afterSpace: /[ \t]$/.test(text) };
}

/**
 * The rich editor: Quill with the bubble theme, loaded only when the learner starts editing. The
 * details show as HTML (the server's, while they are the ones it rendered) in an element that
 * reads as the "note details" text box; clicking it, tabbing into it or typing in it fetches
 * Quill (about 50 KB compressed) and turns that element into the editor, the caret where the
 * click was (after the text when reached by keyboard). Keys pressed meanwhile are kept and
 * replayed into the editor, so nothing typed is lost. The code is fetched a moment earlier when
 * the pointer comes over the details. Read-only details never load it.
 * `startEditing` loads it at once (the learner chose "Edit as rich content").
 *
 * It never saves over Markdown it cannot hold: before it takes a text it checks that writing it
 * back unedited gives the same text (rich-mode/); if not, it stays read-only and calls
 * `onRefuse` with the text, and the note is edited as Markdown.
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
  // Fixed once editing starts, with the details it shows: React must never rewrite what Quill owns.
  const [frozen, setFrozen] = useState(() => (phase === "loading" ? shown : undefined));
  const phaseRef = useRef(phase);
  phaseRef.current = phase;
  const caret = useRef<CaretMark>("end");
  const pendingKeys = useRef<PendingKey[]>([]);
  // A keyboard user's Enter on the details only starts editing; it is not a line break.
  const enterStarts = useRef(true);

  function startEditingNow() {
    if (!canEdit || phaseRef.current !== "shown") return;
    phaseRef.current = "loading";
    setFrozen(lastShown.current);
    setPhase("loading");
  }

  useEffect(() => {
    if (phase !== "loading" || !frozen) return;
    let cancelled = false;
    void import("./markdown-convert").then((convert) => {
      const host = hostRef.current;
      if (cancelled || !host) return;
      const taken = autosaveRef.current.value;
      // Changed while Quill loaded (another tab, undo): show the current details.
      if (taken !== frozen.value) host.innerHTML = convert.markdownToHtml(taken);
      const hadFocus = host.ownerDocument.activeElement === host;
      const quill = convert.createRichQuill(host, { readonly: false, placeholder: RICH_PLACEHOLDER });
      if (!convert.holdsExactly(quill, taken)) {
        quill.disable();
        pendingKeys.current = [];
        onRefuseRef.current(taken, convert.RICH_MODE_REASONS.other);
        return;
      }
      layout.current = convert.layoutFor(taken);
      // Quill's editable root is a plain div: say what it is, so assistive technology can name it.
      // The element that stood for it until now stops being a text box.
      for (const name of ["role", "aria-label", "aria-multiline", "aria-busy", "tabindex"]) host.removeAttribute(name);
      quill.root.setAttribute("role", "textbox");
      quill.root.setAttribute("aria-multiline", "true");
      quill.root.setAttribute("aria-label", "note details");
      quill.root.setAttribute("dir", "auto"); // Arabic or Hebrew details read right to left
      quill.on("text-change", (_delta, _old, source) => {
        if (source !== "user") return;
        const written = convert.editorMarkdownAndLayout(quill, layout.current);
        const markdown = written.markdown;
        layout.current = written.layout;
        lastEmitted.current = markdown;
        autosaveRef.current.onChange(markdown);
      });
      quill.root.addEventListener("blur", () => autosaveRef.current.flush());
      quillRef.current = quill;
      lastEmitted.current = taken;
      const at = convert.replayKeys(quill, convert.caretIndex(quill, caret.current), pendingKeys.current);
      pendingKeys.current = [];
      if (hadFocus) quill.setSelection(at, 0, "silent");
      setPhase("ready");
    });
    return () => {
      cancelled = true;
    };
  }, [phase, frozen]);

  // A value from elsewhere (undo, another tab): show it.
  useEffect(() => {
    const quill = quillRef.current;
    if (!quill || autosave.value === lastEmitted.current) return;
    lastEmitted.current = autosave.value;
    const value = autosave.value;
    void import("./markdown-convert").then((convert) => {
      convert.setMarkdown(quill, value);
      if (!convert.holdsExactly(quill, value)) {
        quill.disable();
        onRefuseRef.current(value, convert.RICH_MODE_REASONS.other);
        return;
      }
      layout.current = convert.layoutFor(value);
    });
  }, [autosave.value]);

  /** The pointer is over the details: fetch the editor's code now, so a click finds it (or nearly). */
  function onPointerEnter() {
    if (phaseRef.current === "shown") void import("./markdown-convert").catch(() => {}); // a failed fetch is retried on the click
  }
  function onMouseDown(event: MouseEvent<HTMLDivElement>) {
    if (phaseRef.current === "shown" && hostRef.current) caret.current = caretMarkAt(hostRef.current, event.clientX, event.clientY);
    enterStarts.current = false;
  }
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (phaseRef.current === "ready" || event.ctrlKey || event.metaKey || event.altKey || event.nativeEvent.isComposing) return;
    const printable = event.key.length === 1;
    if (!printable && !REPLAYED_KEYS.has(event.key)) return; // Tab, Escape...: as usual
    event.preventDefault();
    const first = pendingKeys.current.length === 0;
    startEditingNow();
    if (event.key === "Enter" && first && enterStarts.current) return;
    enterStarts.current = false;
    pendingKeys.current.push(printable ? { text: event.key } : { key: event.key as Exclude<PendingKey, { text: string }>["key"] });
  }
  function onPaste(event: ClipboardEvent<HTMLDivElement>) {
    if (phaseRef.current === "ready") return;
    event.preventDefault();
    const text = event.clipboardData.getData("text/plain");
    startEditingNow();
    if (text) pendingKeys.current.push({ text });
  }
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
        tabIndex={standIn && canEdit ? 0 : undefined}
        {...(canEdit && standIn ? { onPointerEnter, onMouseDown, onFocus: startEditingNow, onKeyDown, onPaste, onClick } : {})}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's rendering of the details or renderMarkdownSafely's, both sanitised.
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </div>
  );
}
