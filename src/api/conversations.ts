import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import {
  conversationsAboutNote,
  conversationsOf,
  markReadAndListUnread,
  messagesOf,
  sendMessage,
  showConversation,
  startConversationAboutAssessmentQuestion,
  startConversationAboutNote,
  startConversationAboutRecallPrompt,
  unreadMessages,
} from "../services/conversations/conversation-service";
import { requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { Conversation, ConversationMessage, ConversationMessages, Conversations } from "./schemas/people";

/** A message as the reference sends it (a JSON string), or as {message} / {feedback}. */
/**
 * A message: the text itself (a JSON string, or plain text), or {message} (or {feedback}, from an
 * assessment). The service checks that it is not blank and not too long.
 */
const MessageBody = t.Union(
  [t.String(), t.Object({ message: t.Optional(t.String()), feedback: t.Optional(t.String()) }, { additionalProperties: true })],
  { error: "must be the message's text" },
);
const textOf = (body: typeof MessageBody.static) => (typeof body === "string" ? body : (body.message ?? body.feedback));

const conversationParams = t.Object({ conversationId: IdParam });

/** /api/conversation: conversations about notes, answered questions and assessment questions, between their parties. */
export function conversationsApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api/conversation" })
    .use(core(ctx))
    .get("/all", ({ auth }) => conversationsOf(ctx, requireUser(auth)), { access: "signed-in", response: Conversations })
    .get("/unread", ({ auth }) => unreadMessages(ctx, requireUser(auth)), { access: "signed-in", response: ConversationMessages })
    .get("/note/:note", ({ auth, params }) => conversationsAboutNote(ctx, requireUser(auth), params.note), {
      access: "signed-in",
      response: Conversations,
      params: t.Object({ note: IdParam }),
    })
    .post("/note/:note", ({ auth, params, body }) => startConversationAboutNote(ctx, requireUser(auth), params.note, textOf(body)), {
      access: "signed-in",
      response: Conversation,
      params: t.Object({ note: IdParam }),
      body: MessageBody,
    })
    .post(
      "/recall-prompt/:recallPrompt",
      ({ auth, params, body }) => startConversationAboutRecallPrompt(ctx, requireUser(auth), params.recallPrompt, textOf(body)),
      { access: "signed-in", response: Conversation, params: t.Object({ recallPrompt: IdParam }), body: MessageBody },
    )
    .post(
      "/assessment-question/:assessmentQuestion",
      ({ auth, params, body }) => startConversationAboutAssessmentQuestion(ctx, requireUser(auth), params.assessmentQuestion, textOf(body)),
      { access: "signed-in", response: Conversation, params: t.Object({ assessmentQuestion: IdParam }), body: MessageBody },
    )
    .get("/:conversationId", ({ auth, params }) => showConversation(ctx, requireUser(auth), params.conversationId), {
      access: "signed-in",
      response: Conversation,
      params: conversationParams,
    })
    .get("/:conversationId/messages", ({ auth, params }) => messagesOf(ctx, requireUser(auth), params.conversationId), {
      access: "signed-in",
      response: t.Array(ConversationMessage),
      params: conversationParams,
    })
    .post("/:conversationId/send", ({ auth, params, body }) => sendMessage(ctx, requireUser(auth), params.conversationId, textOf(body)), {
      access: "signed-in",
      response: ConversationMessage,
      params: conversationParams,
      body: MessageBody,
    })
    .patch("/:conversationId/read", ({ auth, params }) => markReadAndListUnread(ctx, requireUser(auth), params.conversationId), {
      access: "signed-in",
      response: ConversationMessages,
      params: conversationParams,
    });
}
