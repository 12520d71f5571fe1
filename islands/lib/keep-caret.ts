import { type RefObject, useLayoutEffect, useRef } from "react";

/**
 * Where a caret at `index` in `before` is in `after`, when the text changed around it (a merged
 * change from someone else): before the changed stretch it stays, after it it moves with the
 * text, inside it it goes to the stretch's end.
 */
export function shiftedIndex(before: string, after: string, index: number): number {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  if (index <= head) return index;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail])
    tail++;
  if (index >= before.length - tail) return index + after.length - before.length;
  return after.length - tail;
}

/**
 * Keeps the caret of a focused text field where it was when its value is changed from outside
 * (not by typing): React would put it at the end.
 */
export function useKeptCaret(ref: RefObject<HTMLTextAreaElement | HTMLInputElement | null>, value: string) {
  const before = useRef<{ value: string; start: number; end: number }>(undefined);
  // Read in render, before React writes the new value into the field.
  const element = ref.current;
  if (element && element.value !== value && element.ownerDocument.activeElement === element)
    before.current = { value: element.value, start: element.selectionStart ?? 0, end: element.selectionEnd ?? 0 };
  useLayoutEffect(() => {
    const was = before.current;
    before.current = undefined;
    const field = ref.current;
    if (!was || !field || field.ownerDocument.activeElement !== field) return;
    field.setSelectionRange(shiftedIndex(was.value, value, was.start), shiftedIndex(was.value, value, was.end));
  }, [ref, value]);
}
