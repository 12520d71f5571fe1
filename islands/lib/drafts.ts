/**
 * Unsaved text kept in localStorage while a save is pending or failing, so that closing the tab
 * (or a crash) does not lose it. A draft remembers the server value it was typed over (`base`):
 * it is restored only if the server still has that value.
 */
export interface Draft {
  value: string;
  base: string;
}

const PREFIX = "engram.draft.";

export function readDraft(key: string): Draft | undefined {
  try {
    const text = localStorage.getItem(PREFIX + key);
    return text ? (JSON.parse(text) as Draft) : undefined;
  } catch {
    return undefined;
  }
}

export function writeDraft(key: string, draft: Draft) {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(draft));
  } catch {
    // storage full or disabled: the page still retries while it is open
  }
}

export function clearDraft(key: string) {
  try {
    localStorage.removeItem(PREFIX + key);
  } catch {
    // nothing to clear
  }
}
