import type { AiReplyEvent, AiReplyStream } from "../services/conversations/ai-chat";

const encoder = new TextEncoder();

/** One event in the server-sent events format: its name, then its data as JSON (or as text). */
export const sseFrame = ({ event, data }: AiReplyEvent) =>
  encoder.encode(`event: ${event}\ndata: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);

/**
 * An AI reply stream as a server-sent events response. It always ends with `done`; when the
 * browser goes away the run is aborted.
 */
export function sseResponse(stream: AiReplyStream): Response {
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      let open = true;
      const send = (event: AiReplyEvent) => {
        if (!open) return;
        try {
          controller.enqueue(sseFrame(event));
        } catch {
          open = false;
        }
      };
      try {
        await stream.produce(send, stream.abort.signal);
      } finally {
        send({ event: "done", data: "[DONE]" });
        open = false;
        try {
          controller.close();
        } catch {
          // the browser went away first
        }
      }
    },
    cancel() {
      stream.abort.abort();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      // Proxies (nginx) must not hold events back.
      "x-accel-buffering": "no",
    },
  });
}
