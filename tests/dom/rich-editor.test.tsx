/**
 * The rich details editor itself (Quill under happy-dom): it takes only Markdown it gives back
 * unchanged, and otherwise hands the note to the Markdown editor without saving anything. It
 * loads Quill only when editing starts (a focus, typing), and until then the details can be typed
 * into as they are shown: what was typed is handed to Quill as the learner's edit.
 */
import { afterEach, expect, test } from "bun:test";
import Quill from "quill";
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import type { Autosave } from "../../islands/lib/use-autosave";
import { RichEditor } from "../../islands/note-show/DetailsEditor";
import { RICH_MODE_REASONS } from "../../islands/note-show/rich-mode";

let root: Root | undefined;
afterEach(() => {
  if (root) act(() => root!.unmount());
  root = undefined;
});

/** An autosave whose value is the last one typed; a render may show an older one (`renderWith`). */
function renderRichEditor(value: string, { startEditing = true, initialHtml = "", readonly = false } = {}) {
  const changes: string[] = [];
  const refusals: [string, string][] = [];
  const autosaveShowing = (shown: string): Autosave => ({
    value: shown,
    dirty: false,
    saving: false,
    failed: false,
    rejected: undefined,
    conflict: undefined,
    onChange: (next) => changes.push(next),
    currentValue: () => changes.at(-1) ?? value,
    flush: () => {},
  });
  const container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
  const renderWith = (shown: string) =>
    act(() =>
      root!.render(
        <RichEditor
          autosave={autosaveShowing(shown)}
          readonly={readonly}
          initialHtml={initialHtml}
          startEditing={startEditing}
          onRefuse={(m, r) => refusals.push([m, r])}
        />,
      ),
    );
  renderWith(value);
  return { container, changes, refusals, renderWith };
}

/** Waits for the editor's code (imported on demand) to load and take the text. */
async function editorOf(container: HTMLElement): Promise<Quill | null> {
  for (let i = 0; i < 100; i++) {
    await act(() => new Promise<void>((resolve) => setTimeout(resolve, 10)));
    const host = container.querySelector(".rich-details");
    if (host?.classList.contains("ql-container")) return Quill.find(host) as Quill | null;
  }
  throw new Error("the rich editor did not load");
}

test("given a table, the editor refuses it: nothing is saved, and it cannot be typed into", async () => {
  const table = "| Property | Value |\n|---|---|\n| Moons | 2 |";
  const { container, changes, refusals } = renderRichEditor(table);
  const quill = await editorOf(container);
  expect(refusals).toEqual([[table, RICH_MODE_REASONS.other]]);
  expect(quill!.isEnabled()).toBe(false);
  expect(changes).toEqual([]);
});

test("given ordinary Markdown, the editor takes it and saves an edit as that Markdown plus the edit", async () => {
  const { container, changes, refusals } = renderRichEditor("# Moon\nEarth's **only** satellite.");
  const quill = await editorOf(container);
  expect(refusals).toEqual([]);
  act(() => {
    quill!.insertText(quill!.getLength() - 1, "!", "user");
  });
  expect(changes).toEqual(["# Moon\nEarth's **only** satellite.!"]);
  expect(container.querySelector(".ql-editor")?.getAttribute("data-placeholder")).toBe("Enter note details here...");
});

/** Lets the editor's code load (or not), as editorOf does. */
async function settle(times = 30) {
  for (let i = 0; i < times; i++) await act(() => new Promise<void>((resolve) => setTimeout(resolve, 10)));
}

const standIn = (container: HTMLElement) => container.querySelector<HTMLElement>(".rich-details")!;

test("until editing starts, the details are the server's HTML in an editable 'note details' text box, not Quill", async () => {
  const { container, changes } = renderRichEditor("Warm **blooded**", {
    startEditing: false,
    initialHtml: "<p>Warm <strong>blooded</strong></p>",
  });
  await settle();
  const host = standIn(container);
  expect(host.classList.contains("ql-container")).toBe(false);
  expect(container.querySelector(".ql-editor")).toBeNull();
  expect(host.getAttribute("role")).toBe("textbox");
  expect(host.getAttribute("aria-label")).toBe("note details");
  expect(host.getAttribute("contenteditable")).toBe("true");
  expect(host.querySelector("strong")?.textContent).toBe("blooded");

  act(() => host.focus());
  const quill = await editorOf(container);
  expect(quill!.getText()).toBe("Warm blooded\n");
  // The stand-in gave its role to Quill's editable root.
  expect(host.hasAttribute("role")).toBe(false);
  expect(container.querySelector(".ql-editor")?.getAttribute("role")).toBe("textbox");
  expect(changes).toEqual([]);
});

test("what is typed into the details while the editor loads is handed to it as an edit, and saved", async () => {
  const { container, changes } = renderRichEditor("Warm **blooded**", {
    startEditing: false,
    initialHtml: "<p>Warm <strong>blooded</strong></p>",
  });
  const host = standIn(container);
  act(() => host.focus());
  // The browser types into the editable stand-in (here, as a browser would: inside the bold word).
  act(() => {
    host.querySelector("strong")!.append(" is!");
    host.dispatchEvent(new Event("input", { bubbles: true }));
  });
  expect(host.classList.contains("ql-container")).toBe(false); // still loading: the text is there meanwhile
  await editorOf(container);
  expect(changes.at(-1)).toBe("Warm **blooded is!**");
});

test("read-only details never load the editor, even when focused or typed in", async () => {
  const { container } = renderRichEditor("Warm", { startEditing: true, readonly: true, initialHtml: "<p>Warm</p>" });
  const host = standIn(container);
  act(() => host.focus());
  act(() => {
    host.dispatchEvent(new KeyboardEvent("keydown", { key: "a", bubbles: true, cancelable: true }));
  });
  await settle();
  expect(host.classList.contains("ql-container")).toBe(false);
  expect(host.getAttribute("aria-readonly")).toBe("true");
  expect(host.hasAttribute("contenteditable")).toBe(false);
});

test("a render that lags behind the typing takes back no key typed since", async () => {
  const { container, changes, renderWith } = renderRichEditor("Mitochondria");
  const quill = await editorOf(container);
  // Two keys, each told to the autosave; a render then comes with the value after the first one.
  act(() => {
    quill!.insertText(0, "A", "user");
    quill!.insertText(1, "l", "user");
  });
  expect(changes).toEqual(["AMitochondria", "AlMitochondria"]);
  renderWith("AMitochondria");
  await settle();
  expect(quill!.getText()).toBe("AlMitochondria\n");
  expect(changes.at(-1)).toBe("AlMitochondria");
});

test("someone else's change shows in the open editor where it belongs, keeping what was just typed and the caret", async () => {
  const { createRichQuill, setMarkdown, showMarkdown, holdsExactly } = await import("../../islands/note-show/markdown-convert");
  const host = document.createElement("div");
  document.body.append(host);
  const quill = createRichQuill(host, { readonly: false, placeholder: "" });
  setMarkdown(quill, "Mitochondria produce ATP.\n\nThey have their own DNA.");
  quill.insertText(0, "Alice: ", "user");
  quill.insertText(quill.getLength() - 1, " ", "user"); // a space at a line's end: not in the Markdown
  quill.setSelection(quill.getLength() - 1, 0);
  const before = "Alice: Mitochondria produce ATP.\n\nThey have their own DNA.";
  const after = "Alice: Mitochondria produce ATP.\n\nBob: They have their own DNA.";
  showMarkdown(quill, before, after);
  expect(quill.getText()).toBe("Alice: Mitochondria produce ATP.\nBob: They have their own DNA. \n");
  expect(quill.getSelection()?.index).toBe(quill.getLength() - 1);
  quill.deleteText(quill.getLength() - 2, 1, "silent");
  expect(holdsExactly(quill, after)).toBe(true);
});
