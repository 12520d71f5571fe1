import type { RecallResult } from "./recall-session";

/** What an item of the quiz tells the page when it is done. */
export interface ItemHandlers {
  /** The item is answered: the page shows its result (a question or spelling) or moves on (a review). */
  onFinished: (result: RecallResult) => void;
  /** Its tracker is gone (404/403): move on without a result. */
  onGone: () => void;
  /** Offline, its question is not on the device (it needs the AI): move on, it stays due. */
  onSkip: () => void;
}
