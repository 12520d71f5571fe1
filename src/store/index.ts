/**
 * Every store of the app, built on one Database (the app context holds both). Services call these;
 * nothing outside src/store touches SQL (tests/unit/store-boundary.test.ts).
 */
import type { Database } from "./database";
import { jobsStore } from "./jobs/jobs-store";
import { noteChangesStore } from "./note-changes/note-changes-store";
import { signInLimitsStore } from "./sign-in-limits/sign-in-limits-store";

export function createStores(database: Database) {
  return {
    jobs: jobsStore(database),
    noteChanges: noteChangesStore(database),
    signInLimits: signInLimitsStore(database),
  };
}

export type Stores = ReturnType<typeof createStores>;
export type { Database } from "./database";
