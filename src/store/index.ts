/**
 * Every store of the app, built on one Database (the app context holds both). Services call these;
 * nothing outside src/store touches SQL (tests/unit/store-boundary.test.ts).
 */
import { accountsStore } from "./accounts/accounts-store";
import { adminStore } from "./admin/admin-store";
import { aiRunsStore } from "./ai-runs/ai-runs-store";
import { assessmentsStore } from "./assessments/assessments-store";
import { cacheVersionsStore } from "./cache-versions/cache-versions-store";
import { conversationsStore } from "./conversations/conversations-store";
import type { Database } from "./database";
import { failureReportsStore } from "./failure-reports/failure-reports-store";
import { fineTuningStore } from "./fine-tuning/fine-tuning-store";
import { jobsStore } from "./jobs/jobs-store";
import { leasesStore } from "./leases/leases-store";
import { memoryStore } from "./memory/memory-store";
import { noteChangesStore } from "./note-changes/note-changes-store";
import { noteRevisionsStore } from "./note-revisions/note-revisions-store";
import { notesStore } from "./notes/notes-store";
import { operationsStore } from "./operations/operations-store";
import { recallPromptsStore } from "./recall-prompts/recall-prompts-store";
import { requestResultsStore } from "./request-results/request-results-store";
import { binaryIndexStore } from "./search/binary-index-store";
import { searchStore } from "./search/search-store";
import { sessionsStore } from "./sessions/sessions-store";
import { settingsStore } from "./settings/settings-store";
import { sharingStore } from "./sharing/sharing-store";
import { signInLimitsStore } from "./sign-in-limits/sign-in-limits-store";
import { userReferencesStore } from "./user-references/user-references-store";
import { usersStore } from "./users/users-store";

export function createStores(database: Database) {
  return {
    accounts: accountsStore(database),
    admin: adminStore(database),
    aiRuns: aiRunsStore(database),
    assessments: assessmentsStore(database),
    binaryIndex: binaryIndexStore(database),
    cacheVersions: cacheVersionsStore(database),
    conversations: conversationsStore(database),
    failureReports: failureReportsStore(database),
    fineTuning: fineTuningStore(database),
    jobs: jobsStore(database),
    leases: leasesStore(database),
    memory: memoryStore(database),
    noteChanges: noteChangesStore(database),
    noteRevisions: noteRevisionsStore(database),
    notes: notesStore(database),
    operations: operationsStore(database),
    recallPrompts: recallPromptsStore(database),
    requestResults: requestResultsStore(database),
    search: searchStore(database),
    sessions: sessionsStore(database),
    settings: settingsStore(database),
    sharing: sharingStore(database),
    signInLimits: signInLimitsStore(database),
    userReferences: userReferencesStore(database),
    users: usersStore(database),
  };
}

export type Stores = ReturnType<typeof createStores>;
export type { Database } from "./database";
