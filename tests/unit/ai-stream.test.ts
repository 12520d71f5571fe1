/** The browser's reading of the AI reply stream: events split across chunks, status texts, errors, completions. */
import { describe, expect, test } from "bun:test";
import {
  type AiReplyEvent,
  completedDetails,
  parseEvents,
  statusText,
  streamErrorText,
  visibleTail,
} from "../../islands/lib/conversations/ai-stream";
import { sseFrame } from "../../src/web/sse";

describe("AI reply stream in the browser", () => {
  test("events are parsed only when whole; data lines join with a newline; [DONE] stays text", () => {
    const first = parseEvents('event: thread.message.delta\ndata: {"delta":{"content":[{"text":{"value":"Hi"}}]}}\n\nevent: done\nda');
    expect(first.events as unknown[]).toEqual([
      { event: "thread.message.delta", data: { delta: { content: [{ text: { value: "Hi" } }] } } },
    ]);
    const second = parseEvents(`${first.rest}ta: [DONE]\n\nevent: error\ndata: line one\ndata: line two\n\n`);
    expect(second.events as unknown[]).toEqual([
      { event: "done", data: "[DONE]" },
      { event: "error", data: "line one\nline two" },
    ]);
    expect(second.rest).toBe("");
    expect(parseEvents("event: x\r\ndata: 1\r\n\r\n").events as unknown[]).toEqual([{ event: "x", data: 1 }]);
  });

  test("what the server frames (src/web/sse.ts) the browser reads back as the same events, split anywhere", () => {
    const sent: AiReplyEvent[] = [
      {
        event: "thread.run.created",
        data: { id: "run_1", object: "thread.run", thread_id: "thread_1", status: "queued", required_action: null },
      },
      {
        event: "thread.message.delta",
        data: {
          id: "msg_1",
          object: "thread.message.delta",
          delta: { content: [{ index: 0, type: "text", text: { value: "Hi\n\nthere", annotations: [] } }] },
        },
      },
      { event: "error", data: { message: "The reply was cancelled" } },
      { event: "done", data: "[DONE]" },
    ];
    const wire = sent.map((event) => new TextDecoder().decode(sseFrame(event))).join("");
    for (const cut of [1, 17, wire.length - 3]) {
      const first = parseEvents(wire.slice(0, cut));
      const second = parseEvents(first.rest + wire.slice(cut));
      expect([...first.events, ...second.events]).toEqual(sent);
    }
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
