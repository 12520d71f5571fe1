/**
 * Related notes never leak. A shared notebook (a circle's, also in the bazaar) links to a private
 * notebook and is linked from it (the private link note has details of its own); a shared note
 * that readers learned and talked about was then moved into the private notebook and rewritten.
 * Every route of the app's route table is walked for a visitor, a stranger, a subscriber, a
 * former subscriber and a circle member: GET routes (API and pages) with every parameter filled,
 * the other routes as listed below (a new route fails this test until it is listed), the
 * Obsidian export unzipped, MCP tools and resources, AI replies and note change streams as
 * server-sent events, and every prompt sent to the AI. Every private title and detail holds the
 * marker; none may appear.
 */

import { beforeEach, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { eq } from "drizzle-orm";
import JSZip from "jszip";
import type { NoteRealmJson } from "../../src/services/notes/presenters";
import { one } from "../../src/store/session";
import { appRoutes, type HttpClient, useTestServerWithFakeOpenAI } from "../support/server";
import { inWrite } from "../support/test-database";

const MARK = "PRIVATE-";

type ReaderName = "anonymous" | "stranger" | "subscriber" | "former subscriber" | "circle member";
const READERS: ReaderName[] = ["anonymous", "stranger", "subscriber", "former subscriber", "circle member"];
const LOGINS: Record<Exclude<ReaderName, "anonymous">, string> = {
  stranger: "user",
  subscriber: "another_old_learner",
  "former subscriber": "non_admin",
  "circle member": "a_trainer",
};

/** What one reader holds: its client, token and own records. */
interface ReaderState {
  name: ReaderName;
  client: HttpClient;
  token?: string;
  trackers: number[];
  conversations: number[];
  prompts: number[];
  subscriptions: number[];
}

/** One request of the walk. */
interface Call {
  method: string;
  path: string;
  json?: unknown;
}

describe("related notes are asked for, for each reader, on every route", () => {
  const { server, fake } = useTestServerWithFakeOpenAI();
  let ids: Record<string, number>;
  let circleId: number;
  let bazaarEntryId: number;
  let readers: Record<ReaderName, ReaderState>;

  const inject = async (rows: { Title: string; Details?: string; "Parent Title"?: string }[], circleName: string | null) => {
    const result = await server
      .client()
      .post("/api/testability/inject_notes", { externalIdentifier: "old_learner", circleName, noteTestData: rows });
    expect(result.status).toBe(200);
    return result.body as Record<string, number>;
  };

  const ok = async <T>(promise: Promise<{ status: number; text: string; body: T }>) => {
    const result = await promise;
    if (result.status !== 200) throw new Error(`${result.status} ${result.text}`);
    return result.body;
  };

  beforeEach(async () => {
    // Every chat answer repeats what the AI was told, so a leak into a prompt shows in the answer too.
    fake.chat.setDefault((body) => ({ kind: "text", text: JSON.stringify(body.messages) }));
    const admin = server.client();
    expect((await admin.post("/api/testability/inject_circle", { circleName: "Team", members: "old_learner, a_trainer" })).status).toBe(
      200,
    );
    ids = {
      ...(await inject(
        [
          { Title: "Shared Book", Details: "A shared notebook" },
          { Title: "Shared Topic", "Parent Title": "Shared Book", Details: "Shared topic details" },
          { Title: "Shared Lesson", "Parent Title": "Shared Book", Details: "A lesson everyone learns" },
          { Title: "Shared Scrap", "Parent Title": "Shared Book" },
        ],
        "Team",
      )),
      ...(await inject(
        [
          { Title: `${MARK}book`, Details: `${MARK}book details` },
          { Title: `${MARK}secret`, "Parent Title": `${MARK}book`, Details: `${MARK}secret details, long enough to be cut short` },
        ],
        null,
      )),
    };
    expect((await admin.post("/api/testability/share_to_bazaar", { noteTopology: "Shared Book" })).status).toBe(200);
    const owner = await server.client().loginAs("old_learner");
    // Linked both ways: a shared note to the private one, the private one to the shared note (with details).
    await ok(owner.post(`/api/links/create/${ids["Shared Topic"]}/${ids[`${MARK}secret`]}`, { linkType: "related to" }));
    await ok(owner.post(`/api/links/create/${ids[`${MARK}secret`]}/${ids["Shared Topic"]}`, { linkType: "an example of" }));
    const topic = await ok(owner.get<NoteRealmJson>(`/api/notes/${ids["Shared Topic"]}`));
    ids.sharedLink = topic.children!.find((c) => c.noteTopology.linkType)!.id;
    const secret = await ok(owner.get<NoteRealmJson>(`/api/notes/${ids[`${MARK}secret`]}`));
    ids.privateLink = secret.children!.find((c) => c.noteTopology.linkType)!.id;
    await ok(owner.patch(`/api/text_content/${ids.privateLink}/details`, { details: `${MARK}link details` }));

    const sharedNotebook = await ok(owner.get<NoteRealmJson>(`/api/notes/${ids["Shared Book"]}`));
    ids.sharedNotebook = sharedNotebook.notebook!.id;
    ids.privateNotebook = (await ok(owner.get<NoteRealmJson>(`/api/notes/${ids[`${MARK}book`]}`))).notebook!.id;
    circleId = sharedNotebook.notebook!.circle!.id;
    bazaarEntryId = (await ok(server.client().get<{ id: number }[]>("/api/bazaar")))[0]!.id;

    readers = {} as Record<ReaderName, ReaderState>;
    for (const name of READERS) {
      const client = server.client();
      const state: ReaderState = { name, client, trackers: [], conversations: [], prompts: [], subscriptions: [] };
      readers[name] = state;
      if (name === "anonymous") continue;
      await client.loginAs(LOGINS[name]);
      if (name === "stranger") await ok(client.post("/api/user", { name: "Stranger" }));
      state.token = (await ok(client.post<{ token: string }>("/api/user/generate-token", { label: "assistant" }))).token;
      if (name === "subscriber" || name === "former subscriber") {
        const subscription = await ok(
          client.post<{ id: number }>(`/api/subscriptions/notebooks/${ids.sharedNotebook}/subscribe`, { dailyTargetOfNewNotes: 5 }),
        );
        state.subscriptions.push(subscription.id);
      }
      if (name !== "stranger") {
        const trackers = await ok(
          client.post<{ id: number }[]>("/api/assimilation", { noteId: ids["Shared Lesson"], skipMemoryTracking: false }),
        );
        state.trackers.push(...trackers.map((t) => t.id));
        state.prompts.push(await answeredPrompt(state.trackers[0]!));
      }
      state.conversations.push(
        (await ok(client.post<{ id: number }>(`/api/conversation/note/${ids["Shared Lesson"]}`, "What is this?"))).id,
      );
      if (name === "former subscriber") await ok(client.post(`/api/subscriptions/${state.subscriptions[0]}/delete`));
    }

    // The owner takes the learned note private and rewrites it.
    await ok(owner.post(`/api/notes/move_after/${ids["Shared Lesson"]}/${ids[`${MARK}book`]}/true`));
    await ok(owner.patch(`/api/text_content/${ids["Shared Lesson"]}/title`, { newTitle: `${MARK}moved lesson` }));
    await ok(owner.patch(`/api/text_content/${ids["Shared Lesson"]}/details`, { details: `${MARK}moved lesson details` }));
    fake.chat.requests.length = 0;
  });

  /** An answered recall prompt of the reader's tracker, written as the recall page would leave it. */
  function answeredPrompt(trackerId: number): Promise<number> {
    const now = server.ctx.clock.now();
    return inWrite(server, function* (s) {
      const question = yield* one(
        s,
        s.db
          .insert(s.t.predefinedQuestions)
          .values({
            noteId: ids["Shared Lesson"]!,
            multipleChoicesQuestion: JSON.stringify({ stem: "Which lesson?", choices: ["this", "that"] }),
            correctAnswerIndex: 0,
            approved: false,
            contested: false,
            createdAt: now,
          })
          .returning(),
      );
      const tracker = yield* one(
        s,
        s.db.select({ userId: s.t.memoryTrackers.userId }).from(s.t.memoryTrackers).where(eq(s.t.memoryTrackers.id, trackerId)),
      );
      const prompt = yield* one(
        s,
        s.db
          .insert(s.t.recallPrompts)
          .values({
            userId: tracker!.userId,
            memoryTrackerId: trackerId,
            predefinedQuestionId: question!.id,
            answerChoiceIndex: 1,
            answerCorrect: false,
            answeredAt: now,
            createdAt: now,
          })
          .returning(),
      );
      return prompt!.id;
    });
  }

  /** The notes a reader asks about by id: shared ones, the shared link, the moved note and a private one. */
  const noteIds = () => [ids["Shared Book"]!, ids["Shared Topic"]!, ids.sharedLink!, ids["Shared Lesson"]!, ids[`${MARK}secret`]!];

  /** Values for each path parameter of a GET route, for this reader. A new parameter name fails the walk until it is given here. */
  function parameterValues(reader: ReaderState, route: string): Record<string, string[]> {
    const notes = noteIds().map(String);
    return {
      note: notes,
      id: route.startsWith("/api/predefined-questions/") ? notes : ["1"],
      notePath: notes.map((id) => `n${id}`),
      notebook: [ids.sharedNotebook, ids.privateNotebook].map(String),
      notebookId: [ids.sharedNotebook, ids.privateNotebook].map(String),
      memoryTracker: reader.trackers.map(String),
      // /recall-prompts/{memoryTracker}/question shares the position of /recall-prompts/{recallPrompt}.
      recallPrompt: [...reader.prompts, ...reader.trackers].map(String),
      recallPromptId: reader.prompts.map(String),
      conversationId: reader.conversations.map(String),
      circle: [String(circleId)],
      circleId: [String(circleId)],
      subscription: reader.subscriptions.map(String),
      image: ["1"],
      // No vault here embeds a file: an attachment answers bytes of a notebook's own files, not notes.
      attachment: ["1"],
      name: ["x.png"],
      tab: ["users"],
      // An operation is its starter's own (an import's counts, a backup); no reader here started one.
      operation: ["1"],
      failureReport: ["1"],
      failureReportId: ["1"],
      invitationCode: ["nope"],
      token: ["nope"],
    };
  }

  /** GET routes left out of the walk, and why. */
  const GET_NOT_WALKED: Record<string, string> = {
    "GET /assets/*": "the client bundle",
    "GET /favicon.svg": "an icon",
    "GET /icons/:icon": "the app's icons",
    "GET /manifest.webmanifest": "the web app manifest",
    "GET /sw.js": "the service worker's script",
    "GET /api/wikidata/entity-data/:wikidataId": "answers Wikidata's data, no note",
    "GET /api/wikidata/search/:search": "answers Wikidata's search, no note",
  };

  /** Every path of a GET route with its parameters filled (none when a parameter has no value for this reader). */
  function expand(reader: ReaderState, route: string): string[] {
    const values = parameterValues(reader, route);
    let paths = [route.replace(/\/$/, "") || "/"];
    for (const match of route.matchAll(/:(\w+)(\?)?/g)) {
      const [token, name, optional] = match;
      const options = values[name!];
      if (options === undefined) throw new Error(`No value for the parameter :${name} of ${route}: add one to parameterValues`);
      paths = paths.flatMap((path) => [
        ...options.map((value) => path.replace(token, value)),
        ...(optional ? [path.replace(`/${token}`, "")] : []),
      ]);
    }
    return paths.map((path) => (path.includes("?") ? path : `${path}?timezone=UTC`));
  }

  /**
   * The routes other than GET: how each is called in the walk (its requests, for this reader), or
   * why it is not (a string). The circle member may edit the shared notebook, so its writes succeed
   * and answer realms; everyone else is refused.
   */
  function otherRoutes(reader: ReaderState): Record<string, Call[] | string> {
    const topic = ids["Shared Topic"]!;
    const book = ids["Shared Book"]!;
    const lesson = ids["Shared Lesson"]!;
    const each = <T>(list: T[], call: (item: T) => Call) => list.map(call);
    return {
      "POST /api/notes/search": [
        {
          method: "POST",
          path: "/api/notes/search",
          json: { searchKey: "secret", allMyNotebooksAndSubscriptions: true, allMyCircles: true },
        },
      ],
      "POST /api/notes/:note/search": [{ method: "POST", path: `/api/notes/${topic}/search`, json: { searchKey: "secret" } }],
      "POST /api/notes/semantic-search": [
        {
          method: "POST",
          path: "/api/notes/semantic-search",
          json: { searchKey: "secret details", allMyNotebooksAndSubscriptions: true, allMyCircles: true },
        },
      ],
      "POST /api/notes/:note/semantic-search": [
        { method: "POST", path: `/api/notes/${topic}/semantic-search`, json: { searchKey: "secret" } },
      ],
      "POST /api/conversation/note/:note": [
        { method: "POST", path: `/api/conversation/note/${topic}`, json: "About this topic" },
        { method: "POST", path: `/api/conversation/note/${lesson}`, json: "About the lesson" },
      ],
      "POST /api/conversation/:conversationId/ai-reply": each(reader.conversations, (id) => ({
        method: "POST",
        path: `/api/conversation/${id}/ai-reply`,
      })),
      "PATCH /api/conversation/:conversationId/read": each(reader.conversations, (id) => ({
        method: "PATCH",
        path: `/api/conversation/${id}/read`,
      })),
      "POST /api/conversation/:conversationId/send": each(reader.conversations, (id) => ({
        method: "POST",
        path: `/api/conversation/${id}/send`,
        json: "Still there?",
      })),
      "POST /api/conversation/recall-prompt/:recallPrompt": each(reader.prompts, (id) => ({
        method: "POST",
        path: `/api/conversation/recall-prompt/${id}`,
        json: "Why was I wrong?",
      })),
      "POST /api/conversation/assessment-question/:assessmentQuestion": "no assessment here; its subject is a question, not a note",
      "POST /api/links/create/:sourceNote/:targetNote": [
        { method: "POST", path: `/api/links/create/${topic}/${book}`, json: { linkType: "a part of" } },
      ],
      "POST /api/links/:link": [{ method: "POST", path: `/api/links/${ids.sharedLink}`, json: { linkType: "similar to" } }],
      "POST /api/links/move/:sourceNote/:targetNote": [
        { method: "POST", path: `/api/links/move/${topic}/${book}`, json: { asFirstChild: true } },
      ],
      "POST /api/notes/move_after/:note/:targetNote/:asFirstChild": [
        { method: "POST", path: `/api/notes/move_after/${topic}/${book}/true` },
      ],
      "POST /api/notes/:note/create": [{ method: "POST", path: `/api/notes/${topic}/create`, json: { newTitle: "A new child" } }],
      "POST /api/notes/:note/create-after": [{ method: "POST", path: `/api/notes/${topic}/create-after`, json: { newTitle: "A sibling" } }],
      "POST /api/notes/:note/delete": [{ method: "POST", path: `/api/notes/${ids["Shared Scrap"]}/delete` }],
      "PATCH /api/notes/:note/undo-delete": [{ method: "PATCH", path: `/api/notes/${ids["Shared Scrap"]}/undo-delete` }],
      "PATCH /api/text_content/:note/title": [
        { method: "PATCH", path: `/api/text_content/${topic}/title`, json: { newTitle: "Shared Topic" } },
      ],
      "PATCH /api/text_content/:note/details": [
        { method: "PATCH", path: `/api/text_content/${topic}/details`, json: { details: "Shared topic details" } },
      ],
      "POST /api/notes/:note/updateWikidataId": [
        { method: "POST", path: `/api/notes/${topic}/updateWikidataId`, json: { wikidataId: "" } },
      ],
      "POST /api/notes/:note/review-setting": [{ method: "POST", path: `/api/notes/${topic}/review-setting`, json: { level: 1 } }],
      "PATCH /api/notes/:note": "answers the note's accessory (image, URL), no related note",
      "POST /api/mcp/notes/create": [
        { method: "POST", path: "/api/mcp/notes/create", json: { parentNote: "Shared Topic", noteCreationDTO: { newTitle: "Via MCP" } } },
      ],
      "POST /api/mcp": "walked through the MCP client below",
      "GET /api/mcp": "405 for a token, 401 otherwise",
      "DELETE /api/mcp": "405 for a token, 401 otherwise",
      "POST /api/recalls/offline-answers": each(reader.trackers, (id) => ({
        method: "POST",
        path: "/api/recalls/offline-answers",
        json: {
          answers: [
            {
              idempotencyKey: `walk-${id}-${reader.name.replace(/\W/g, "")}`,
              memoryTrackerId: id,
              answeredAt: new Date().toISOString(),
              answer: { type: "self-review", successful: true },
            },
          ],
        },
      })),
      "POST /api/assimilation": [{ method: "POST", path: "/api/assimilation", json: { noteId: topic, skipMemoryTracking: false } }],
      "POST /api/memory-trackers/:memoryTracker/remove": each(reader.trackers, (id) => ({
        method: "POST",
        path: `/api/memory-trackers/${id}/remove`,
      })),
      "POST /api/memory-trackers/:memoryTracker/self-evaluate": each(reader.trackers, (id) => ({
        method: "POST",
        path: `/api/memory-trackers/${id}/self-evaluate`,
        json: { adjustment: 5 },
      })),
      "PATCH /api/memory-trackers/:memoryTracker/mark-as-repeated": each(reader.trackers, (id) => ({
        method: "PATCH",
        path: `/api/memory-trackers/${id}/mark-as-repeated?successful=true`,
      })),
      "POST /api/memory-trackers/:memoryTracker/answer-spelling": each(reader.trackers, (id) => ({
        method: "POST",
        path: `/api/memory-trackers/${id}/answer-spelling`,
        json: { spellingAnswer: "moved" },
      })),
      "POST /api/recall-prompts/:recallPrompt/answer": each(reader.prompts, (id) => ({
        method: "POST",
        path: `/api/recall-prompts/${id}/answer`,
        json: { choiceIndex: 0 },
      })),
      "POST /api/recall-prompts/:recallPrompt/contest": each(reader.prompts, (id) => ({
        method: "POST",
        path: `/api/recall-prompts/${id}/contest`,
      })),
      "POST /api/recall-prompts/:recallPrompt/regenerate": each(reader.prompts, (id) => ({
        method: "POST",
        path: `/api/recall-prompts/${id}/regenerate`,
      })),
      "POST /api/ai/suggest-title/:note": each(noteIds(), (id) => ({ method: "POST", path: `/api/ai/suggest-title/${id}` })),
      "POST /api/predefined-questions/generate-question-without-save": each(noteIds(), (id) => ({
        method: "POST",
        path: `/api/predefined-questions/generate-question-without-save?note=${id}`,
      })),
      "POST /api/predefined-questions/:id/refine-question": [
        {
          method: "POST",
          path: `/api/predefined-questions/${topic}/refine-question`,
          json: { multipleChoicesQuestion: { stem: "Which?", choices: ["a", "b"] }, correctAnswerIndex: 0 },
        },
      ],
      "POST /api/predefined-questions/:id/note-questions": [
        {
          method: "POST",
          path: `/api/predefined-questions/${topic}/note-questions`,
          json: { multipleChoicesQuestion: { stem: "Which?", choices: ["a", "b"] }, correctAnswerIndex: 0 },
        },
      ],
      "POST /api/predefined-questions/:id/toggle-approval": "answers a question of a note the caller may edit, no related note",
      "PATCH /api/predefined-questions/:id": "answers the edited question of a note the caller may edit, no related note",
      "POST /api/predefined-questions/:id/delete": "answers nothing about notes",
      "POST /api/predefined-questions/:id/suggest-fine-tuning": "answers nothing about notes",
      "POST /api/ai/generate-image": "answers an image",
      "POST /api/audio/audio-to-text": "answers a transcription",
      "POST /api/ai/cancel-run/:threadId/:runId": "answers a run's status",
      "POST /api/ai/submit-tool-results/:threadId/:runId": "continues a run of ai-reply (walked) from what it stored",
      "POST /api/notebooks/:notebook": [
        { method: "POST", path: `/api/notebooks/${ids.sharedNotebook}`, json: { certificateExpiry: "1y" } },
      ],
      "POST /api/notebooks/:notebook/share": "answers nothing about notes",
      "POST /api/notebooks/:notebook/obsidian": "imports a vault (answers counts)",
      "POST /api/notebooks/:notebook/update-index": "answers counts",
      "POST /api/notebooks/:notebook/reset-index": "answers counts",
      "PATCH /api/notebooks/:notebook/ai-assistant": [
        { method: "PATCH", path: `/api/notebooks/${ids.sharedNotebook}/ai-assistant`, json: { additionalInstructions: "" } },
      ],
      "POST /api/ai/assistant/recreate-notebook/:notebook": [
        { method: "POST", path: `/api/ai/assistant/recreate-notebook/${ids.sharedNotebook}` },
      ],
      "PATCH /api/notebooks/:notebook/move-to-circle/:circle": [
        { method: "PATCH", path: `/api/notebooks/${ids.privateNotebook}/move-to-circle/${circleId}` },
      ],
      "POST /api/notebooks/create": "the caller's own new notebook",
      "POST /api/notebooks/anki": "imports a deck into the caller's own new notebook",
      "POST /api/operations/:operation/dismiss": "the caller's own operation (an import's counts, a backup), no note",
      "POST /api/circles/": "the caller's own new circle",
      "POST /api/circles/join": "answers the circle joined",
      "POST /api/circles/:circle/notebooks": "the caller's own new notebook",
      "POST /api/subscriptions/notebooks/:notebook/subscribe": [
        { method: "POST", path: `/api/subscriptions/notebooks/${ids.privateNotebook}/subscribe`, json: { dailyTargetOfNewNotes: 5 } },
      ],
      "POST /api/subscriptions/:subscription": each(reader.subscriptions, (id) => ({
        method: "POST",
        path: `/api/subscriptions/${id}`,
        json: { dailyTargetOfNewNotes: 3 },
      })),
      "POST /api/subscriptions/:subscription/delete": "answers nothing",
      "POST /api/bazaar/:bazaarNotebook/remove": [{ method: "POST", path: `/api/bazaar/${bazaarEntryId}/remove` }],
      "POST /api/assessment/questions/:notebook": "no approved questions here; questions are checked by the answer-key test",
      "POST /api/assessment/:id": "answers an attempt's score",
      "POST /api/assessment/:id/answer": "answers whether an answer is right",
      "POST /api/certificate/:notebook": "answers a certificate",
      "POST /api/notebook_certificate_approvals/request-approval/:notebook": "answers an approval request",
      "POST /api/notebook_certificate_approvals/:notebookCertificateApproval/approve": "admins only",
      "POST /api/user/": "the caller's profile",
      "PATCH /api/user/:user": "the caller's profile",
      "POST /api/user/generate-token": "a token",
      "DELETE /api/user/token/:tokenId": "nothing",
      "POST /api/user/password": "sessions signed out",
      "POST /api/user/sessions/sign-out-others": "sessions signed out",
      "POST /api/user/optimize-fsrs-parameters": "scheduler figures",
      "POST /api/admin/backups": "admins only",
      "PATCH /api/admin/users/:account": "admins only",
      "POST /api/admin/users/:account/password-reset": "admins only",
      "PATCH /api/ai/assistant/default": "admins only",
      "POST /api/ai/assistant/recreate-default": "admins only",
      "POST /api/settings/current-model-version": "admins only",
      "POST /api/settings/embedding": "admins only",
      "POST /api/fine-tuning/settings": "admins only",
      "POST /api/fine-tuning/upload-and-trigger-fine-tuning": "admins only",
      "POST /api/fine-tuning/:suggestedQuestion/delete": "admins only",
      "POST /api/fine-tuning/:suggestedQuestion/duplicate": "admins only",
      "PATCH /api/fine-tuning/:suggestedQuestion/update-suggested-question-for-fine-tuning": "admins only",
      "DELETE /api/failure-reports/delete": "admins only",
      "POST /logout": "signs out",
      "POST /users/identify": "signs in",
      "POST /users/sign-in": "signs in",
      "POST /users/sign-up": "signs up",
      "POST /users/reset-password/:token": "sets a password",
    };
  }

  /** The private text in an answer: in its body, or for a zip in its file names and files. */
  async function leakIn(response: Response): Promise<string | undefined> {
    if (response.headers.get("content-type")?.startsWith("application/zip")) {
      const zip = await JSZip.loadAsync(await response.arrayBuffer());
      for (const [path, file] of Object.entries(zip.files)) {
        const text = file.dir ? path : `${path}\n${await file.async("string")}`;
        if (text.includes(MARK)) return text;
      }
      return undefined;
    }
    const text = response.headers.get("content-type")?.startsWith("text/event-stream")
      ? await firstEvents(response)
      : await response.text();
    return text.includes(MARK) ? text : undefined;
  }

  /**
   * A server-sent event stream up to its end, or up to its first event when it stays open (a
   * note's change stream: its first event says where the note is now, then it waits for saves).
   */
  async function firstEvents(response: Response): Promise<string> {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text;
      text += decoder.decode(value, { stream: true });
      if (/^event: /m.test(text) && text.endsWith("\n\n")) {
        await reader.cancel();
        return text;
      }
    }
  }

  /** Each call's status, to check that the walk reached what it walks ("reader METHOD path" → status). */
  const statuses = new Map<string, number>();

  async function send(reader: ReaderState, call: Call): Promise<string | undefined> {
    const headers: Record<string, string> = { "accept-encoding": "identity" };
    const cookie = reader.client.sessionCookie;
    if (cookie) headers.cookie = `engram_session=${cookie}`;
    let body: string | undefined;
    if (call.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(call.json);
    }
    const response = await fetch(server.url + call.path, { method: call.method, headers, body, redirect: "manual" });
    statuses.set(`${reader.name} ${call.method} ${call.path.replace("?timezone=UTC", "")}`, response.status);
    const leak = await leakIn(response);
    return leak === undefined ? undefined : `${reader.name}: ${call.method} ${call.path} ${response.status}: ${excerpt(leak)}`;
  }

  const excerpt = (text: string) => {
    const at = text.indexOf(MARK);
    return text.slice(Math.max(0, at - 80), at + 60);
  };

  async function mcpLeaks(reader: ReaderState): Promise<string[]> {
    if (!reader.token) return [];
    const client = new Client({ name: "privacy-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${reader.token}` } },
      }),
    );
    const answers: [string, unknown][] = [];
    const tool = async (name: string, args: Record<string, unknown>) =>
      answers.push([`tool ${name} ${JSON.stringify(args)}`, await client.callTool({ name, arguments: args })]);
    for (const id of noteIds()) {
      await tool("get_note", { noteId: id });
      await tool("get_note_graph", { noteId: id });
      answers.push([
        `resource engram://note/${id}`,
        await client.readResource({ uri: `engram://note/${id}` }).catch((error: Error) => error.message),
      ]);
    }
    await tool("find_most_relevant_note", { query: "secret" });
    await tool("find_most_relevant_note", { query: "lesson" });
    await tool("list_notebooks", {});
    await tool("get_recall_status", {});
    answers.push(["resources/list", await client.listResources()]);
    await client.close();
    return answers
      .filter(([, answer]) => JSON.stringify(answer).includes(MARK))
      .map(([what, answer]) => `${reader.name}: MCP ${what}: ${excerpt(JSON.stringify(answer))}`);
  }

  test("no private title or detail reaches any reader on any route", async () => {
    const routes = appRoutes(server.ctx).filter((r) => !r.path.startsWith("/api/testability/"));
    const unlisted: string[] = [];
    const leaks: string[] = [];
    for (const reader of READERS.map((name) => readers[name])) {
      const others = otherRoutes(reader);
      for (const route of routes) {
        const key = `${route.method} ${route.path}`;
        if (route.method === "GET") {
          if (GET_NOT_WALKED[key]) continue;
          for (const path of expand(reader, route.path)) {
            const leak = await send(reader, { method: "GET", path });
            if (leak) leaks.push(leak);
          }
          continue;
        }
        const plan = others[key];
        if (plan === undefined) {
          if (reader.name === "anonymous") unlisted.push(key);
          continue;
        }
        if (typeof plan === "string") continue;
        for (const call of plan) {
          const leak = await send(reader, call);
          if (leak) leaks.push(leak);
        }
      }
      leaks.push(...(await mcpLeaks(reader)));
    }
    expect(unlisted).toEqual([]);
    // The walk reached the notes and records it is about (it cannot pass by being refused everywhere).
    const status = (key: string) => statuses.get(key);
    for (const name of READERS) {
      expect(status(`${name} GET /api/notes/${ids["Shared Topic"]}`)).toBe(200);
      expect(status(`${name} GET /n${ids["Shared Topic"]}`)).toBe(200);
      expect(status(`${name} GET /api/notebooks/${ids.sharedNotebook}/notes`)).toBe(200);
      expect(status(`${name} GET /api/notes/${ids["Shared Lesson"]}`)).toBe(name === "anonymous" ? 401 : 403);
    }
    for (const name of READERS.filter((n) => n !== "anonymous")) {
      expect(status(`${name} GET /api/conversation/all`)).toBe(200);
      expect(status(`${name} GET /api/notebooks/${ids.sharedNotebook}/obsidian`)).toBe(200);
    }
    for (const name of ["subscriber", "former subscriber", "circle member"] as const) {
      expect(status(`${name} GET /api/memory-trackers/${readers[name].trackers[0]}`)).toBe(200);
      expect(status(`${name} GET /api/memory-trackers/recent`)).toBe(200);
    }
    // A note's change stream opens for whoever reads the note, and for nobody once it went private.
    for (const name of READERS) {
      expect(status(`${name} GET /api/notes/${ids["Shared Topic"]}/changes`)).toBe(200);
      expect(status(`${name} GET /api/notes/${ids["Shared Lesson"]}/changes`)).toBe(name === "anonymous" ? 401 : 403);
    }
    expect(status(`circle member POST /api/notes/${ids["Shared Topic"]}/create`)).toBe(200);
    expect(status(`circle member POST /api/links/create/${ids["Shared Topic"]}/${ids["Shared Book"]}`)).toBe(200);
    // What the AI was told, for any reader (the owner asked nothing).
    for (const request of fake.chat.requests) {
      const sent = JSON.stringify(request.messages);
      if (sent.includes(MARK)) leaks.push(`AI prompt: ${excerpt(sent)}`);
    }
    expect(leaks).toEqual([]);
  }, 240_000);
});
