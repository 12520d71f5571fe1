/** Reads server-sent events from a stream as they come, one per call; `stop()` closes the stream. */
export function eventReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const next = async (): Promise<{ event: string; data: unknown }> => {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) return { event, data: JSON.parse(data) };
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("the stream ended");
      buffer += decoder.decode(value, { stream: true });
    }
  };
  return Object.assign(next, { stop: () => reader.cancel() });
}

/** The raw text of an event stream as it comes: up to a marker (an event's name), then to its end. */
export function streamText(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const readOnce = async (): Promise<boolean> => {
    const { value, done } = await reader.read();
    if (!done) text += decoder.decode(value, { stream: true });
    return !done;
  };
  return {
    async until(marker: string): Promise<string> {
      while (!text.includes(marker) && (await readOnce()));
      return text;
    },
    async toEnd(): Promise<string> {
      while (await readOnce());
      return text;
    },
  };
}
