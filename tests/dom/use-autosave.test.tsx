import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { ApiError } from "../../islands/lib/api";
import { type Autosave, type AutosaveOptions, useAutosave } from "../../islands/lib/use-autosave";

/** Calls the hook and hands its latest result to `report`. */
function Probe({ options, report }: { options: AutosaveOptions; report: (autosave: Autosave) => void }) {
  report(useAutosave(options));
  return null;
}

/** Renders the hook in a real React root on the happy-dom document; `current` is its latest result. */
function renderAutosave(initial: AutosaveOptions) {
  const result = { current: undefined as unknown as Autosave, options: initial, root: undefined as unknown as Root };
  const report = (autosave: Autosave) => {
    result.current = autosave;
  };
  const container = document.createElement("div");
  document.body.appendChild(container);
  result.root = createRoot(container);
  act(() => result.root.render(<Probe options={initial} report={report} />));
  return {
    result,
    rerender(options: Partial<AutosaveOptions>) {
      result.options = { ...result.options, ...options };
      act(() => result.root.render(<Probe options={result.options} report={report} />));
    },
  };
}

const wait = (ms: number) => act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
let mounted: { root: Root }[] = [];
// The hook fetches its merge code on first use; fetched here once, so a test's short wait is
// never spent compiling it on a busy machine.
beforeAll(() => import("../../islands/lib/text-merge"));
afterEach(() => {
  for (const m of mounted) act(() => m.root.unmount());
  mounted = [];
});

function saver(fail = 0) {
  const saved: string[] = [];
  let failures = fail;
  return {
    saved,
    save: async (value: string) => {
      if (failures-- > 0) throw new Error("offline");
      saved.push(value);
    },
  };
}

describe("autosave (spec 4, text editing)", () => {
  afterEach(() => localStorage.clear());

  test("a change is dirty, saved once 1 s after the last keystroke, then clean", async () => {
    const server = saver();
    const { result } = renderAutosave({ serverValue: "a", save: server.save });
    mounted.push(result);
    act(() => result.current.onChange("ab"));
    act(() => result.current.onChange("abc"));
    expect(result.current.dirty).toBe(true);
    await wait(600);
    expect(server.saved).toEqual([]);
    await wait(600);
    expect(server.saved).toEqual(["abc"]);
    expect(result.current.dirty).toBe(false);
  });

  test("blur saves at once", async () => {
    const server = saver();
    const { result } = renderAutosave({ serverValue: "a", save: server.save });
    mounted.push(result);
    act(() => result.current.onChange("b"));
    act(() => result.current.flush());
    await wait(10);
    expect(server.saved).toEqual(["b"]);
  });

  test("a blank title is never saved, and stays as typed", async () => {
    const server = saver();
    const { result } = renderAutosave({ serverValue: "Title", save: server.save, canSave: (v) => v.trim().length > 0 });
    mounted.push(result);
    act(() => result.current.onChange("   "));
    act(() => result.current.flush());
    await wait(1100);
    expect(server.saved).toEqual([]);
    expect(result.current.value).toBe("   ");
    expect(result.current.dirty).toBe(true);
  });

  test("a newer value from the server, while nothing is being edited, is shown", async () => {
    const server = saver();
    const { result, rerender } = renderAutosave({ serverValue: "old", serverRevision: 1, save: server.save });
    mounted.push(result);
    rerender({ serverValue: "from elsewhere", serverRevision: 2 });
    expect(result.current.value).toBe("from elsewhere");
    expect(result.current.dirty).toBe(false);
    await wait(1100);
    expect(server.saved).toEqual([]);
  });

  test("someone else's change in another place is merged into what is being typed, and saved from their revision", async () => {
    const sent: { value: string; baseRevision?: number }[] = [];
    const { result, rerender } = renderAutosave({
      serverValue: "First line.\nSecond line.",
      serverRevision: 1,
      save: async (value, { baseRevision }) => {
        sent.push({ value, baseRevision });
        return { value, revision: 3 };
      },
    });
    mounted.push(result);
    act(() => result.current.onChange("First line, mine.\nSecond line."));
    rerender({ serverValue: "First line.\nSecond line, theirs.", serverRevision: 2 });
    await wait(50);
    expect(result.current.value).toBe("First line, mine.\nSecond line, theirs.");
    expect(result.current.dirty).toBe(true);
    expect(result.current.conflict).toBeUndefined();
    await wait(1100);
    expect(sent).toEqual([{ value: "First line, mine.\nSecond line, theirs.", baseRevision: 2 }]);
    expect(result.current.dirty).toBe(false);
  });

  test("someone else's change in the same place asks which to keep, saving nothing meanwhile; keep mine saves it over theirs", async () => {
    const server = saver();
    const saved: [string, string, number | undefined][] = [];
    const { result, rerender } = renderAutosave({
      serverValue: "The cell",
      serverRevision: 1,
      save: async (value) => {
        server.saved.push(value);
        return { value, revision: 3 };
      },
      onSaved: (value, previous, revision) => saved.push([value, previous, revision]),
    });
    mounted.push(result);
    act(() => result.current.onChange("The big cell"));
    rerender({ serverValue: "The small cell", serverRevision: 2 });
    await wait(1200);
    expect(result.current.conflict?.mine).toBe("The big cell");
    expect(result.current.conflict?.theirs).toBe("The small cell");
    expect(result.current.value).toBe("The big cell");
    expect(server.saved).toEqual([]);
    act(() => result.current.conflict!.keepMine());
    await wait(50);
    expect(server.saved).toEqual(["The big cell"]);
    expect(result.current.conflict).toBeUndefined();
    // Undo goes back to their text.
    expect(saved).toEqual([["The big cell", "The small cell", 3]]);
  });

  test("a key typed over a value that a merge has just moved on is merged into it, not typed over it", async () => {
    const server = saver();
    const { result, rerender } = renderAutosave({ serverValue: "One.\nTwo.", serverRevision: 1, save: server.save });
    mounted.push(result);
    act(() => result.current.onChange("One!\nTwo.", "One.\nTwo."));
    rerender({ serverValue: "One.\nTwo, theirs.", serverRevision: 2 });
    await wait(50);
    expect(result.current.value).toBe("One!\nTwo, theirs.");
    // The editor had not shown the merge yet when the next key came.
    act(() => result.current.onChange("One!!\nTwo.", "One!\nTwo."));
    expect(result.current.value).toBe("One!!\nTwo, theirs.");
  });

  test("keep theirs shows their text, saves nothing, and hands mine over for undo", async () => {
    const server = saver();
    const discarded: [string, number | undefined][] = [];
    const { result, rerender } = renderAutosave({
      serverValue: "The cell",
      serverRevision: 1,
      save: server.save,
      onDiscarded: (mine, revision) => discarded.push([mine, revision]),
    });
    mounted.push(result);
    act(() => result.current.onChange("The big cell"));
    rerender({ serverValue: "The small cell", serverRevision: 2 });
    await wait(50);
    act(() => result.current.conflict!.keepTheirs());
    expect(result.current.value).toBe("The small cell");
    expect(result.current.dirty).toBe(false);
    expect(discarded).toEqual([["The big cell", 2]]);
    await wait(1100);
    expect(server.saved).toEqual([]);
  });

  test("a save the server merged shows the merge, and undo takes back only this save's change", async () => {
    const saved: [string, string, number | undefined][] = [];
    const { result } = renderAutosave({
      serverValue: "One.\nTwo.",
      serverRevision: 1,
      save: async () => ({ value: "One, mine.\nTwo, theirs.", revision: 3 }),
      onSaved: (value, previous, revision) => saved.push([value, previous, revision]),
    });
    mounted.push(result);
    act(() => result.current.onChange("One, mine.\nTwo."));
    act(() => result.current.flush());
    await wait(50);
    expect(result.current.value).toBe("One, mine.\nTwo, theirs.");
    expect(result.current.dirty).toBe(false);
    expect(saved).toEqual([["One, mine.\nTwo, theirs.", "One.\nTwo, theirs.", 3]]);
  });

  test("a 409 asks for the server's text again (then merged or chosen); it is not retried", async () => {
    let conflicts = 0;
    let attempts = 0;
    const { result } = renderAutosave({
      serverValue: "v1",
      serverRevision: 1,
      save: async () => {
        attempts++;
        throw new ApiError(409, "Someone else changed this text meanwhile, in the same place");
      },
      onConflict: () => conflicts++,
    });
    mounted.push(result);
    act(() => result.current.onChange("v2"));
    act(() => result.current.flush());
    await wait(2500);
    expect(conflicts).toBe(1);
    expect(attempts).toBe(1);
    expect(result.current.failed).toBe(false);
    expect(result.current.value).toBe("v2");
  });

  test("the echo of our own save is not taken for a newer value", async () => {
    const server = saver();
    const { result, rerender } = renderAutosave({ serverValue: "v1", save: server.save });
    mounted.push(result);
    act(() => result.current.onChange("v2"));
    act(() => result.current.flush());
    await wait(10);
    act(() => result.current.onChange("v2 and more"));
    rerender({ serverValue: "v2" });
    expect(result.current.value).toBe("v2 and more");
    expect(result.current.dirty).toBe(true);
  });

  test("a failed save keeps the text dirty and is retried until it succeeds", async () => {
    const server = saver(1);
    const saved: [string, string][] = [];
    const { result } = renderAutosave({
      serverValue: "before",
      save: server.save,
      onSaved: (value, previous) => saved.push([value, previous]),
    });
    mounted.push(result);
    act(() => result.current.onChange("after"));
    act(() => result.current.flush());
    await wait(20);
    expect(result.current.failed).toBe(true);
    expect(result.current.dirty).toBe(true);
    await wait(2100);
    expect(server.saved).toEqual(["after"]);
    expect(result.current.failed).toBe(false);
    expect(result.current.dirty).toBe(false);
    expect(saved).toEqual([["after", "before"]]);
  });

  test("a retry says it is one, so the caller reports a failure once", async () => {
    const attempts: boolean[] = [];
    let failures = 1;
    const save = async (_value: string, { retry }: { keepalive: boolean; retry: boolean }) => {
      attempts.push(retry);
      if (failures-- > 0) throw new Error("offline");
    };
    const { result } = renderAutosave({ serverValue: "before", save });
    mounted.push(result);
    act(() => result.current.onChange("after"));
    act(() => result.current.flush());
    await wait(2100);
    expect(attempts).toEqual([false, true]);
    expect(result.current.dirty).toBe(false);
  });

  test("a save the server refuses (400) is not retried, and shows the server's field message", async () => {
    const sent: string[] = [];
    const save = async (value: string) => {
      sent.push(value);
      throw new ApiError(400, "Details: size must be at most 200000", { details: "size must be at most 200000" });
    };
    const { result } = renderAutosave({ serverValue: "before", save, draftKey: "note-3-details" });
    mounted.push(result);
    act(() => result.current.onChange("x".repeat(10)));
    act(() => result.current.flush());
    await wait(20);
    expect(result.current.rejected).toBe("size must be at most 200000");
    expect(result.current.failed).toBe(false);
    act(() => result.current.flush()); // blur again: the same text is not sent again
    await wait(2200); // past the first retry delay and the typing pause
    expect(sent).toEqual(["xxxxxxxxxx"]);
    expect(result.current.value).toBe("xxxxxxxxxx");
    expect(result.current.dirty).toBe(true);
    expect(JSON.parse(localStorage.getItem("engram.draft.note-3-details")!).value).toBe("xxxxxxxxxx");
  });

  test("after a refusal, the next change is saved again and clears the message", async () => {
    const sent: string[] = [];
    const save = async (value: string) => {
      sent.push(value);
      if (value.length > 5)
        throw new ApiError(400, "Title: size must be between 1 and 150", { newTitle: "size must be between 1 and 150" });
    };
    const { result } = renderAutosave({ serverValue: "old", save });
    mounted.push(result);
    act(() => result.current.onChange("too long"));
    act(() => result.current.flush());
    await wait(20);
    expect(result.current.rejected).toBe("size must be between 1 and 150");
    act(() => result.current.onChange("short"));
    await wait(1100);
    expect(sent).toEqual(["too long", "short"]);
    expect(result.current.rejected).toBeUndefined();
    expect(result.current.dirty).toBe(false);
  });

  test("text left unsaved when the tab closed is restored and saved on the next visit", async () => {
    const first = renderAutosave({ serverValue: "server text", save: () => new Promise(() => {}), draftKey: "note-1-details" });
    act(() => first.result.current.onChange("typed, never saved"));
    act(() => first.result.root.unmount());
    const server = saver();
    const { result } = renderAutosave({ serverValue: "server text", save: server.save, draftKey: "note-1-details" });
    mounted.push(result);
    expect(result.current.value).toBe("typed, never saved");
    expect(result.current.dirty).toBe(true);
    await wait(1100);
    expect(server.saved).toEqual(["typed, never saved"]);
    expect(localStorage.getItem("engram.draft.note-1-details")).toBeNull();
  });

  test("a draft typed over a value the server no longer has is merged with it, or the choice is asked", async () => {
    localStorage.setItem("engram.draft.note-2-details", JSON.stringify({ value: "Mine.\nTwo.", base: "One.\nTwo." }));
    const server = saver();
    const merged = renderAutosave({ serverValue: "One.\nTwo, theirs.", save: server.save, draftKey: "note-2-details" });
    mounted.push(merged.result);
    await wait(50);
    expect(merged.result.current.value).toBe("Mine.\nTwo, theirs.");
    expect(merged.result.current.dirty).toBe(true);

    localStorage.setItem("engram.draft.note-3-title", JSON.stringify({ value: "stale edit", base: "older title" }));
    const chosen = renderAutosave({ serverValue: "newer title", save: server.save, draftKey: "note-3-title" });
    mounted.push(chosen.result);
    await wait(50);
    expect(chosen.result.current.conflict?.mine).toBe("stale edit");
    expect(chosen.result.current.conflict?.theirs).toBe("newer title");
  });
});
