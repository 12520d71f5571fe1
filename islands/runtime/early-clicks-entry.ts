/** The classic script the document's head runs first (see early-clicks.ts). */
import { installEarlyClicks } from "./early-clicks";

if (!window.engramEarlyClicks) installEarlyClicks(window);
