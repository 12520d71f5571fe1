import { t } from "elysia";
import type { AssessmentAttemptJson, AssessmentQuestionInstanceJson } from "../../services/assessments/assessment-service";
import type { ConversationJson, ConversationMessageJson } from "../../services/conversations/conversation-service";
import type { BazaarNotebookJson } from "../../services/sharing/bazaar";
import type { CircleForUserViewJson } from "../../services/sharing/circles";
import type { UserTokenJson } from "../../services/user-tokens";
import type { CurrentUserInfoJson, UserJson } from "../../services/users";
import { Integer } from "./integer";
import { AnsweredQuestion, MultipleChoicesQuestion } from "./memory";
import { Note, Notebook, NotebooksViewedByUser } from "./notes";
import { describes } from "./same-type";

/** Response schemas of users, tokens, sharing (bazaar, circles), conversations and assessments. */

const dateTime = () => t.String({ format: "date-time" });

export const User = describes<UserJson>()(
  t.Object({
    id: Integer(),
    name: t.String(),
    externalIdentifier: t.String(),
    dailyAssimilationCount: Integer(),
    spaceIntervals: t.String(),
    /** The scheduler and its FSRS settings (Engram's own). */
    scheduler: t.Union([t.Literal("forgetting-curve"), t.Literal("fsrs")]),
    desiredRetention: t.Number(),
    maximumIntervalDays: Integer(),
    admin: t.Boolean(),
  }),
);

export const CurrentUserInfo = describes<CurrentUserInfoJson>()(
  t.Object({ user: t.Optional(User), externalIdentifier: t.Optional(t.String()) }),
);

export const UserToken = describes<UserTokenJson>()(
  t.Object({
    id: Integer(),
    userId: Integer(),
    label: t.String(),
    token: t.String(),
    lastUsedAt: t.Union([dateTime(), t.Null()]),
    /** When the token stops working; null: never (an Engram addition). */
    expiresAt: t.Union([dateTime(), t.Null()]),
    status: t.Union([t.Literal("active"), t.Literal("expired")]),
  }),
);
export const UserTokens = t.Array(UserToken);

export const BazaarNotebook = describes<BazaarNotebookJson>()(t.Object({ id: Integer(), notebook: Notebook }));
export const BazaarNotebooks = t.Array(BazaarNotebook);

export const CircleForUserView = describes<CircleForUserViewJson>()(
  t.Object({
    id: Integer(),
    name: t.String(),
    invitationCode: t.String(),
    notebooks: NotebooksViewedByUser,
    members: t.Array(t.Object({ name: t.String() })),
  }),
);

export const AssessmentQuestionInstance = describes<AssessmentQuestionInstanceJson>()(
  t.Object({
    id: Integer(),
    multipleChoicesQuestion: MultipleChoicesQuestion,
    answer: t.Optional(t.Object({ id: Integer(), choiceIndex: Integer(), correct: t.Boolean() })),
  }),
);

export const AssessmentAttempt = describes<AssessmentAttemptJson>()(
  t.Object({
    id: Integer(),
    notebookId: Integer(),
    notebookTitle: t.String(),
    totalQuestionCount: Integer(),
    answersCorrect: Integer(),
    assessmentQuestionInstances: t.Array(AssessmentQuestionInstance),
    certifiable: t.Boolean(),
    submittedAt: t.Optional(dateTime()),
    isPass: t.Optional(t.Boolean()),
    createdAt: dateTime(),
  }),
);

const party = t.Object({ id: Integer(), name: t.String() });

/** Another person inside an answer (services/user-references.ts): the login only for the reader themself, else user#<id>. */
export const UserReference = t.Object({ id: Integer(), name: t.String(), externalIdentifier: t.String() });

export const Conversation = describes<ConversationJson>()(
  t.Object({
    id: Integer(),
    subject: t.Object({
      note: t.Optional(Note),
      answeredQuestion: t.Optional(AnsweredQuestion),
      assessmentQuestionInstance: t.Optional(AssessmentQuestionInstance),
    }),
    subjectOwnership: t.Object({ circle: t.Optional(party), ownerName: t.Optional(t.String()) }),
    conversationInitiator: UserReference,
    createdAt: dateTime(),
    updatedAt: dateTime(),
    unread: t.Optional(t.Boolean()),
    subjectTitle: t.Optional(t.String()),
    otherPartyName: t.Optional(t.String()),
    mayEditNote: t.Optional(t.Boolean()),
  }),
);
export const Conversations = t.Array(Conversation);

export const ConversationMessage = describes<ConversationMessageJson>()(
  t.Object({ id: Integer(), message: t.String(), sender: t.Optional(UserReference), readByReceiver: t.Boolean(), createdAt: dateTime() }),
);
export const ConversationMessages = t.Array(ConversationMessage);

/** One of the account's sessions, as Settings lists them. */
export const Session = t.Object({
  createdAt: t.Union([dateTime(), t.Null()]),
  lastUsedAt: t.Union([dateTime(), t.Null()]),
  browser: t.String(),
  current: t.Boolean(),
});

/** How many other sessions a sign-out (or a password change) ended. */
export const SignedOut = t.Object({ signedOut: Integer() });
/** A password change: the other sessions signed out, and the MCP tokens revoked when asked. */
export const PasswordChanged = t.Object({ signedOut: Integer(), revokedTokens: Integer() });
