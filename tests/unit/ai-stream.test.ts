/** The browser's reading of the AI reply stream: events split across chunks, status texts, errors, completions. */
import { describe, expect, test } from "bun:test";
import { completedDetails, parseEvents, statusText, streamErrorText, visibleTail } from "../../islands/lib/conversations/ai-stream";

describe("AI reply stream in the browser", () => {
  test("events are parsed only when whole; data lines join with a newline; [DONE] stays text", () => {
    const first = parseEvents('event: thread.message.delta\ndata: {"delta":{"content":[{"text":{"value":"Hi"}}]}}\n\nevent: done\nda');
    expect(first.events).toEqual([{ event: "thread.message.delta", data: { delta: { content: [{ text: { value: "Hi" } }] } } }]);
    const second = parseEvents(`${first.rest}ta: [DONE]\n\nevent: error\ndata: line one\ndata: line two\n\n`);
    expect(second.events).toEqual([
      { event: "done", data: "[DONE]" },
      { event: "error", data: "line one\nline two" },
    ]);
    expect(second.rest).toBe("");
    expect(parseEvents("event: x\r\ndata: 1\r\n\r\n").events).toEqual([{ event: "x", data: 1 }]);
  });

  test("the spec's status texts, the event name otherwise", () => {
    expect(statusText("thread.message.created")).toBe("Generating response...");
    expect(statusText("thread.message.delta")).toBe("Writing response...");
    expect(statusText("thread.run.requires_action")).toBe("Processing actions...");
    expect(statusText("thread.run.step.created")).toBe("Starting tool execution...");
    expect(statusText("thread.run.step.delta")).toBe("Processing tool call...");
    expect(statusText("thread.run.completed")).toBe("thread.run.completed");
  });

  test("a stream error with 400 reads Bad Request", () => {
    expect(streamErrorText({ message: "400 Invalid model" })).toBe("Bad Request");
    expect(streamErrorText({ message: "The server had an error" })).toBe("The server had an error");
    expect(streamErrorText(undefined)).toBe("There is a problem");
  });

  test("a completion deletes up to deleteFromEnd characters, then appends", () => {
    expect(completedDetails("A bread lea", 3, "leavened.")).toBe("A bread leavened.");
    expect(completedDetails("abc", 10, "x")).toBe("x");
    expect(completedDetails("abc", 0, " d")).toBe("abc d");
    expect(completedDetails("abc", -2, "d")).toBe("abcd");
    expect(visibleTail(" a\nb")).toBe("·a↵b");
  });
});
