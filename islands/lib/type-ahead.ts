/**
 * Keys typed while a lazily loaded dialog is on its way (its code, and its dialog primitives', are
 * fetched when it first opens): kept, and handed to its text field once the field has the focus,
 * so nothing typed is lost. What opens the dialog starts it; the field takes the keys when it is
 * first focused, which stops it. Printable keys and Backspace are kept; shortcuts (Ctrl, Alt, Meta) and an IME's
 * composition pass through. It stops by itself after MAX_WAIT_MS should the field never come.
 */
const MAX_WAIT_MS = 10_000;

export interface TypeAhead {
  /** The keys typed so far (once: "" after that); stops keeping them. */
  take(): string;
}

export function startTypeAhead(): TypeAhead {
  let typed = "";
  let stopped = false;
  const keep = (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    if ([...event.key].length === 1) typed += event.key;
    else if (event.key === "Backspace") typed = [...typed].slice(0, -1).join("");
    else return;
    event.preventDefault();
    event.stopPropagation();
  };
  const stop = () => {
    if (stopped) return;
    stopped = true;
    window.removeEventListener("keydown", keep, true);
  };
  window.addEventListener("keydown", keep, true);
  setTimeout(stop, MAX_WAIT_MS);
  return {
    take() {
      stop();
      const taken = typed;
      typed = "";
      return taken;
    },
  };
}
