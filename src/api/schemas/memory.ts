import { t } from "elysia";
import type { MultipleChoicesQuestion as MultipleChoicesQuestionJson } from "../../ai/question-generation";
import type { AssimilationCountJson } from "../../services/memory/assimilation";
import type { optimizeFsrsParameters } from "../../services/memory/fsrs-parameters";
import type { OfflineAnswerOutcome as OfflineAnswerOutcomeJson } from "../../services/memory/offline-answers";
import type { OfflineItemJson, OfflinePackJson } from "../../services/memory/offline-pack";
import type { DueMemoryTrackersJson, RecallOverviewJson } from "../../services/memory/recall-list";
import type { RecallLogJson } from "../../services/memory/recall-log";
import type { MemoryTrackerJson, NoteInfoJson, RecallSettingJson } from "../../services/memory/trackers";
import type { QuestionContestResult as QuestionContestResultJson } from "../../services/recall-prompts/mcq";
import type { AnsweredQuestionJson, RecallPromptJson } from "../../services/recall-prompts/presenters";
import type { SpellingQuestionJson, SpellingResultJson } from "../../services/spelling/spelling-service";
import type { StatsJson } from "../../services/stats/stats";
import { Integer } from "./integer";
import { Note, Notebook, NoteRealm } from "./notes";
import { describes } from "./same-type";

/** Response schemas of the learning loop: memory trackers, assimilation, recall and recall prompts. */

const dateTime = () => t.String({ format: "date-time" });

export const MemoryTracker = describes<MemoryTrackerJson>()(
  t.Object({
    id: Integer(),
    note: Note,
    lastRecalledAt: dateTime(),
    nextRecallAt: dateTime(),
    assimilatedAt: dateTime(),
    repetitionCount: Integer(),
    forgettingCurveIndex: Integer(),
    removedFromTracking: t.Boolean(),
    spelling: t.Boolean(),
    /** FSRS memory state, while the user schedules with FSRS (Engram's own). */
    stability: t.Optional(t.Number()),
    difficulty: t.Optional(t.Number()),
  }),
);
export const MemoryTrackers = t.Array(MemoryTracker);

export const RecallSetting = describes<RecallSettingJson>()(
  t.Object({ level: Integer(), rememberSpelling: t.Boolean(), skipMemoryTracking: t.Boolean() }),
);

export const NoteInfo = describes<NoteInfoJson>()(
  t.Object({ note: NoteRealm, recallSetting: RecallSetting, memoryTrackers: MemoryTrackers, createdAt: dateTime() }),
);

export const AssimilationCount = describes<AssimilationCountJson>()(
  t.Object({ dueCount: Integer(), assimilatedCountOfTheDay: Integer(), totalUnassimilatedCount: Integer() }),
);

const overviewFields = { toRepeatCount: Integer(), totalAssimilatedCount: Integer(), recallWindowEndAt: dateTime() };
export const RecallOverview = describes<RecallOverviewJson>()(t.Object(overviewFields));

export const DueMemoryTrackers = describes<DueMemoryTrackersJson>()(
  t.Object({
    ...overviewFields,
    toRepeat: t.Array(t.Object({ memoryTrackerId: Integer(), spelling: t.Boolean(), noteId: Integer() })),
    dueInDays: Integer(),
  }),
);

export const MultipleChoicesQuestion = describes<MultipleChoicesQuestionJson>()(
  t.Object({ stem: t.String(), choices: t.Array(t.String()) }),
);

export const RecallPrompt = describes<RecallPromptJson>()(
  t.Object({ id: Integer(), multipleChoicesQuestion: MultipleChoicesQuestion, notebook: Notebook }),
);

export const AnsweredQuestion = describes<AnsweredQuestionJson>()(
  t.Object({
    note: Note,
    predefinedQuestion: t.Object({
      id: Integer(),
      multipleChoicesQuestion: MultipleChoicesQuestion,
      correctAnswerIndex: Integer(),
      approved: t.Boolean(),
    }),
    answer: t.Object({ id: Integer(), choiceIndex: Integer(), correct: t.Boolean() }),
    answerDisplay: t.String(),
    recallPromptId: Integer(),
  }),
);

export const QuestionContestResult = describes<QuestionContestResultJson>()(t.Object({ rejected: t.Boolean(), advice: t.String() }));

export const SpellingQuestion = describes<SpellingQuestionJson>()(t.Object({ stem: t.String(), notebook: Notebook }));
export const SpellingResult = describes<SpellingResultJson>()(t.Object({ note: Note, answer: t.String(), isCorrect: t.Boolean() }));

/** A recall prompt's question, or null when none could be made (the client shows a simple review). */
export const RecallPromptOrNone = t.Union([RecallPrompt, t.Null()]);
/** An answered question, or null while it is unanswered. */
export const AnsweredQuestionOrNone = t.Union([AnsweredQuestion, t.Null()]);

export const RecallLogEntry = describes<RecallLogJson>()(
  t.Object({
    id: Integer(),
    memoryTrackerId: Integer(),
    reviewedAt: dateTime(),
    kind: t.String(),
    outcome: t.String(),
    thinkingTimeMs: t.Union([Integer(), t.Null()]),
    scheduledHours: t.Union([t.Number(), t.Null()]),
    elapsedHours: t.Union([t.Number(), t.Null()]),
    /** The tracker's schedule before and after the review, as the scheduler keeps it. */
    stateBefore: t.Unknown(),
    stateAfter: t.Unknown(),
  }),
);

/** One item a device keeps to recall offline, with what its question needs. */
const OfflineItem = describes<OfflineItemJson>()(
  t.Object({
    memoryTrackerId: Integer(),
    noteId: Integer(),
    spelling: t.Boolean(),
    kind: t.Union([t.Literal("spelling"), t.Literal("multiple-choice"), t.Literal("self-review"), t.Literal("needs-ai")]),
    note: Note,
    spellingQuestion: t.Optional(SpellingQuestion),
    prompt: t.Optional(RecallPrompt),
    correctChoiceIndex: t.Optional(Integer()),
  }),
);

export const OfflinePack = describes<OfflinePackJson>()(
  t.Composite([DueMemoryTrackers, t.Object({ items: t.Array(OfflineItem), savedAt: dateTime() })]),
);

const OfflineAnswerOutcome = describes<OfflineAnswerOutcomeJson>()(
  t.Object({
    idempotencyKey: t.String(),
    memoryTrackerId: Integer(),
    status: t.UnionEnum(["applied", "removed", "out-of-reach", "reset", "answered-later", "too-old", "refused"]),
    correct: t.Optional(t.Boolean()),
    reviewedAt: t.Optional(dateTime()),
    message: t.Optional(t.String()),
  }),
);

/** The outcome of each answer given offline, in the order they were sent. */
export const OfflineAnswerOutcomes = t.Object({ outcomes: t.Array(OfflineAnswerOutcome) });

/** "Optimize my parameters": how the fitted FSRS weights did on the held-out reviews, and which were kept. */
export const FsrsOptimization = describes<Awaited<ReturnType<typeof optimizeFsrsParameters>>>()(
  t.Object({
    reviews: Integer(),
    heldOutReviews: Integer(),
    logLossBefore: t.Number(),
    logLossAfter: t.Number(),
    kept: t.Union([t.Literal("fitted"), t.Literal("defaults")]),
  }),
);

const countOnDate = t.Object({ date: t.String({ format: "date" }), count: Integer() });

/** A user's statistics: the recall forecast and history by day, retention by week, and totals. */
export const Stats = describes<StatsJson>()(
  t.Object({
    forecast: t.Array(countOnDate),
    history: t.Array(countOnDate),
    retentionByWeek: t.Array(t.Object({ weekStart: t.String({ format: "date" }), reviews: Integer(), successes: Integer() })),
    totals: t.Object({ notesAssimilated: Integer(), activeTrackers: Integer(), averageIntervalDays: t.Number() }),
  }),
);
