import { t } from "elysia";
import type { EmbeddingSettings as EmbeddingSettingsJson } from "../../ai/embedding-settings";
import type { GlobalAiModelSettings as GlobalAiModelSettingsJson } from "../../ai/model-settings";
import type { AssistantSettingsJson, DefaultAssistantJson } from "../../services/admin/assistant";
import type { dataUpgrade } from "../../services/admin/data-upgrade";
import type { AccountForAdminJson, createPasswordReset } from "../../services/admin/users";
import type { TextFromAudioJson } from "../../services/ai-assistant/audio-to-text";
import type { NotebookAiAssistantJson, NotebookAssistantJson } from "../../services/ai-assistant/notebook-assistant";
import type { NotebookCertificateApprovalJson } from "../../services/assessments/approvals";
import type { CertificateJson } from "../../services/assessments/certificates";
import type { backupNow } from "../../services/backups";
import type { BackupStatus as BackupStatusJson } from "../../services/backups/schedule";
import type { deleteFailureReports, FailureReportForViewJson, FailureReportJson } from "../../services/failure-reports";
import type { FineTuningSettings, FineTuningTriggerJson } from "../../services/fine-tuning/training";
import type { SuggestedQuestionJson } from "../../services/predefined-questions/fine-tuning-suggestions";
import type { NoteQuestionsJson, PredefinedQuestionJson } from "../../services/predefined-questions/presenters";
import { Integer } from "./integer";
import { MultipleChoicesQuestion } from "./memory";
import { Notebook } from "./notes";
import { describes } from "./same-type";

/** Response schemas of questions, certificates and the admin area (failure reports, users, AI settings). */

const dateTime = () => t.String({ format: "date-time" });

export const PredefinedQuestion = describes<PredefinedQuestionJson>()(
  t.Object({
    id: Integer(),
    multipleChoicesQuestion: MultipleChoicesQuestion,
    /** The answer key: sent to the notebook's editors only. */
    correctAnswerIndex: t.Optional(Integer()),
    approved: t.Boolean(),
  }),
);
export const NoteQuestions = describes<NoteQuestionsJson>()(
  t.Object({ note: t.Object({ id: Integer(), title: t.String() }), questions: t.Array(PredefinedQuestion) }),
);

export const SuggestedQuestionForFineTuning = describes<SuggestedQuestionJson>()(
  t.Object({
    id: Integer(),
    comment: t.String(),
    preservedQuestion: t.Object({
      multipleChoicesQuestion: MultipleChoicesQuestion,
      correctChoiceIndex: Integer(),
      strictChoiceOrder: t.Boolean(),
    }),
    preservedNoteContent: t.String(),
    realCorrectAnswers: t.String(),
    createdAt: dateTime(),
    positiveFeedback: t.Boolean(),
  }),
);

export const FineTuningSettingsSchema = describes<FineTuningSettings>()(t.Object({ baseModel: t.String() }));

export const Certificate = describes<CertificateJson>()(
  t.Object({
    id: Integer(),
    user: t.Object({ id: Integer(), name: t.String(), externalIdentifier: t.String() }),
    notebook: Notebook,
    startDate: t.String(),
    expiryDate: t.String(),
    creatorName: t.String(),
  }),
);

export const NotebookCertificateApproval = describes<NotebookCertificateApprovalJson>()(
  t.Object({ id: Integer(), notebook: Notebook, lastApprovalTime: t.Optional(dateTime()) }),
);

export const FailureReport = describes<FailureReportJson>()(
  t.Object({ id: Integer(), errorName: t.String(), errorDetail: t.String(), createDatetime: dateTime() }),
);
export const FailureReportForView = describes<FailureReportForViewJson>()(
  t.Object({ failureReport: FailureReport, githubIssueUrl: t.Optional(t.String()) }),
);

export const AccountForAdmin = describes<AccountForAdminJson>()(
  t.Object({
    id: Integer(),
    login: t.String(),
    name: t.Optional(t.String()),
    admin: t.Boolean(),
    disabled: t.Boolean(),
    createdAt: dateTime(),
    lastSeenAt: t.Optional(dateTime()),
  }),
);

export const GlobalAiModelSettings = describes<GlobalAiModelSettingsJson>()(
  t.Object({ questionGenerationModel: t.String(), evaluationModel: t.String(), othersModel: t.String() }),
);
export const EmbeddingSettings = describes<EmbeddingSettingsJson>()(
  t.Object({ embeddingModel: t.String(), embeddingDimensions: t.Union([Integer(), t.Null()]) }),
);

export const DefaultAssistant = describes<DefaultAssistantJson>()(
  t.Object({ name: t.String(), model: t.String(), instructions: t.String(), additionalInstructions: t.String(), recreatedAt: dateTime() }),
);
export const AssistantSettings = describes<AssistantSettingsJson>()(
  t.Object({ additionalInstructionsToAi: t.String(), defaultAssistant: t.Union([DefaultAssistant, t.Null()]) }),
);

export const NotebookAiAssistant = describes<NotebookAiAssistantJson>()(
  t.Object({ id: Integer(), notebook: Notebook, additionalInstructionsToAi: t.String(), createdAt: dateTime(), updatedAt: dateTime() }),
);

export const FailureReportsDeleted = describes<Awaited<ReturnType<typeof deleteFailureReports>>>()(t.Object({ deleted: Integer() }));

export const DataUpgrade = describes<ReturnType<typeof dataUpgrade>>()(t.Object({ upgraded: t.Array(t.String()), message: t.String() }));

/** A one-time link to set a new password, shown to the admin once. */
export const PasswordResetLink = describes<Awaited<ReturnType<typeof createPasswordReset>>>()(
  t.Object({ path: t.String(), expiresAt: dateTime() }),
);

export const FineTuningTrigger = describes<FineTuningTriggerJson>()(
  t.Object({
    message: t.String(),
    jobs: t.Array(t.Object({ file: t.String(), trainingFile: t.String(), jobId: t.String(), status: t.String(), model: t.String() })),
  }),
);

/** A notebook's assistant record (Engram's own: nothing is created on the provider's side). */
export const NotebookAssistant = describes<NotebookAssistantJson>()(
  t.Object({
    id: Integer(),
    creator: t.Union([t.Object({ id: Integer(), name: t.String(), externalIdentifier: t.String() }), t.Null()]),
    notebook: Notebook,
    assistantId: t.String(),
    name: t.String(),
    model: t.String(),
    instructions: t.String(),
    additionalInstructions: t.String(),
    createdAt: dateTime(),
  }),
);

export const TextFromAudio = describes<TextFromAudioJson>()(
  t.Object({
    completionFromAudio: t.Object({ deleteFromEnd: Integer(), completion: t.String() }),
    rawSRT: t.String(),
    endTimestamp: t.String(),
  }),
);

const backupStatusFields = {
  lastBackupAt: t.Union([dateTime(), t.Null()]),
  intervalHours: t.Number(),
  keep: Integer(),
  nextBackupAt: t.Union([dateTime(), t.Null()]),
  lastProblem: t.Union([t.String(), t.Null()]),
  backups: t.Array(t.Object({ name: t.String(), bytes: Integer(), takenAt: dateTime() })),
  operatorBackups: t.Union([t.String(), t.Null()]),
};

export const BackupStatus = describes<BackupStatusJson>()(t.Object(backupStatusFields));

/** A snapshot just taken, with the status after it. */
export const BackupTaken = describes<Awaited<ReturnType<typeof backupNow>>>()(
  t.Object({ backup: t.Object({ file: t.String(), bytes: Integer(), takenAt: dateTime() }), ...backupStatusFields }),
);
