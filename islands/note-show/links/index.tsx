import { lazyComponent } from "../../lib/lazy";

/** "search and link note": loaded when opened. A link note's header and "Referenced by" are in their own files, loaded for the notes that show them. */
export const LinkFlow = lazyComponent(() => import("./LinkFlow").then((m) => m.LinkFlow));
