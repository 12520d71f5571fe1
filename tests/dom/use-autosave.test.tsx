import { afterEach, describe, expect, test } from "bun:test";
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

  test("a newer value from the server cancels the pending save and is adopted", async () => {
    const server = saver();
    const { result, rerender } = renderAutosave({ serverValue: "old", save: server.save });
    mounted.push(result);
    act(() => result.current.onChange("mine"));
    rerender({ serverValue: "from elsewhere" });
    expect(result.current.value).toBe("from elsewhere");
    expect(result.current.dirty).toBe(false);
    await wait(1100);
    expect(server.saved).toEqual([]);
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

  test("a draft typed over a value the server no longer has is dropped", async () => {
    localStorage.setItem("engram.draft.note-2-title", JSON.stringify({ value: "stale edit", base: "older title" }));
    const server = saver();
    const { result } = renderAutosave({ serverValue: "newer title", save: server.save, draftKey: "note-2-title" });
    mounted.push(result);
    expect(result.current.value).toBe("newer title");
    expect(result.current.dirty).toBe(false);
    expect(localStorage.getItem("engram.draft.note-2-title")).toBeNull();
  });
});
