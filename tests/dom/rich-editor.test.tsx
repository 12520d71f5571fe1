/**
 * The rich details editor itself (Quill under happy-dom): it takes only Markdown it gives back
 * unchanged, and otherwise hands the note to the Markdown editor without saving anything.
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

function renderRichEditor(value: string) {
  const changes: string[] = [];
  const refusals: [string, string][] = [];
  const autosave: Autosave = {
    value, dirty: false, saving: false, failed: false, rejected: undefined,
    onChange: (next) => changes.push(next),
    flush: () => {},
  };
  const container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
  act(() => root!.render(<RichEditor autosave={autosave} readonly={false} initialHtml="" onRefuse={(m, r) => refusals.push([m, r])} />));
  return { container, changes, refusals };
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
