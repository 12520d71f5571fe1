/**
 * Text typed into a server-rendered field before its island hydrated. Hydration keeps it on
 * screen, but React's state still holds the value the server rendered: the island's next render
 * would put that value back, and a click replayed meanwhile (early-clicks.ts) would send it. So,
 * once the island is live, each field whose text differs from what React rendered (its
 * defaultValue, which hydration sets to React's value) is handed to React as if typed just now.
 */
const NOT_TYPED = new Set(["button", "checkbox", "color", "file", "hidden", "image", "radio", "range", "reset", "submit"]);

/** Answers how many fields it handed over. */
export function replayEarlyTyping(island: Element): number {
  let handed = 0;
  for (const field of island.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input, textarea")) {
    if (field instanceof HTMLInputElement && NOT_TYPED.has(field.type)) continue;
    const typed = field.value;
    if (typed === field.defaultValue) continue;
    // React notices a change by comparing the field with the value it last saw (its tracker, which
    // wraps the field's own value setter): show it React's value through that setter, put the typed
    // text back past it, and let the input event carry the text to the field's onChange.
    field.value = field.defaultValue;
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), "value")?.set?.call(field, typed);
    field.dispatchEvent(new Event("input", { bubbles: true }));
    handed++;
  }
  return handed;
}
