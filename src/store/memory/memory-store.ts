/**
 * A learner's memory: memory trackers, their review log (recall_log, whose aggregates
 * recall_log_buckets and recall_log_tracker_counts follow it by trigger), the idempotency keys of
 * applied answers, and the counts the triggers keep for the lists. The bodies live beside this file
 * (trackers.ts, offline-answers.ts, recall-list.ts, assimilation.ts, stats.ts); this is the store
 * they make.
 */
import { defineStore, read, type StoreOf, write } from "../define";
import { setRecallSetting } from "../notes/recall-setting";
import { assimilationList, assimilationPlan } from "./assimilation";
import { applyOfflineAnswer } from "./offline-answers";
import { dueCount, recallList } from "./recall-list";
import { currentTitles, rebuildCrossings, statsPageRows, statsRows } from "./stats";
import {
  activeTrackersOfNote,
  assimilate,
  pruneAnswerKeys,
  recallLogRows,
  recentTrackers,
  removeFromTracking,
  repeat,
  reviewHistoryRows,
  storedOutcome,
  tracker,
} from "./trackers";

export type {
  AnswerKeyRecord,
  AppliedAnswerRow,
  MemoryTrackerRow,
  NewMemoryTracker,
  NewRecallLogRow,
  PlannedReview,
  RecallLogRow,
  RepeatResult,
  ReviewPlanner,
  TrackerConversion,
  TrackerSchedule,
} from "./trackers";

export const memoryStore = defineStore({
  tracker: read(tracker),
  recentTrackers: read(recentTrackers),
  activeTrackersOfNote: read(activeTrackersOfNote),
  storedOutcome: read(storedOutcome),
  recallLogRows: read(recallLogRows),
  reviewHistoryRows: read(reviewHistoryRows),
  recallList: read(recallList),
  dueCount: read(dueCount),
  assimilationPlan: read(assimilationPlan),
  assimilationList: read(assimilationList),
  statsRows: read(statsRows),
  statsPageRows: read(statsPageRows),
  currentTitles: read(currentTitles),
  rebuildCrossings: write(rebuildCrossings),
  repeat: write(repeat),
  removeFromTracking: write(removeFromTracking),
  assimilate: write(assimilate),
  pruneAnswerKeys: write(pruneAnswerKeys),
  applyOfflineAnswer: write(applyOfflineAnswer),
  /** A note's recall setting (the notes store's body: see notes/recall-setting.ts). */
  updateRecallSetting: write(setRecallSetting),
});
export type MemoryStore = StoreOf<typeof memoryStore>;
