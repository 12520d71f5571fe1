import type { RecallResult } from "./recall-session";

/** What an item of the quiz tells the page when it is done. */
export interface ItemHandlers {
  /** The item is answered; `pause` shows its result at once (a wrong answer). */
  onFinished: (result: RecallResult, pause: boolean) => void;
  /** Its tracker is gone (404/403): move on without a result. */
  onGone: () => void;
}
