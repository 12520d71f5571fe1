import type { RecallPromptJson, SpellingQuestionJson } from "../lib/recall/recall-prompt-types";

/** What recall asks for one memory tracker (online from the server, offline from the device's copy). */
export type TrackerQuestion =
  | { kind: "spelling"; question: SpellingQuestionJson | null }
  | { kind: "choice"; prompt: RecallPromptJson | null }
  /** Offline: its question needs the AI and was not made before the network went. */
  | { kind: "needs-ai" }
  /** Offline: this item is not in the device's copy. */
  | { kind: "unavailable" };
