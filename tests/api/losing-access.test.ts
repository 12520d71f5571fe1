/**
 * Losing access to a note takes effect at once. A learner who read a note (through the bazaar and
 * a subscription, or as a circle member), learned it, talked about it and answered a question on
 * it keeps their conversation, messages and tracker as history, but from the moment the note
 * leaves what they may read (moved into a private notebook, or its notebook moved out of their
 * circle) they see nothing of its new text: the subject and tracker notes are placeholders, the
 * AI no longer replies about it, it leaves recall, its recall prompts are refused and the
 * statistics page no longer names it.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { NoteRealmJson } from "../../src/services/notes/presenters";
import { all, one } from "../../src/store/session";
import { type HttpClient, useTestServerWithFakeOpenAI } from "../support/server";
import { inWrite } from "../support/test-database";

const SECRET = "SECRET-after-the-move";

describe("losing access to a note", () => {
  const { server, fake } = useTestServerWithFakeOpenAI();
  let owner: HttpClient;
  let ids: Record<string, number>;

  const ok = async <T>(promise: Promise<{ status: number; text: string; body: T }>) => {
    const result = await promise;
    if (result.status !== 200) throw new Error(`${result.status} ${result.text}`);
    return result.body;
  };

  const inject = async (rows: { Title: string; Details?: string; "Parent Title"?: string }[], circleName: string | null = null) =>
    ok(
      server.client().post<Record<string, number>>("/api/testability/inject_notes", {
        externalIdentifier: "old_learner",
        circleName,
        noteTestData: rows,
      }),
    );

  /** What the learner did while they could read the note: learned it, talked about it, answered (wrongly) a question on it. */
  async function learnAndTalk(learner: HttpClient, noteId: number) {
    const [tracker] = await ok(learner.post<{ id: number }[]>("/api/assimilation", { noteId, skipMemoryTracking: false }));
    const conversation = await ok(learner.post<{ id: number }>(`/api/conversation/note/${noteId}`, "What does it mean?"));
    fake.chat.respondWithText("It means what it says.");
    expect((await learner.post(`/api/conversation/${conversation.id}/ai-reply`)).status).toBe(200);
    const now = server.ctx.clock.now();
    const prompt = await inWrite(server, function* (s) {
      const { predefinedQuestions, recallPrompts, memoryTrackers } = s.t;
      const [question] = yield* all(
        s,
        s.db
          .insert(predefinedQuestions)
          .values({
            noteId,
            multipleChoicesQuestion: JSON.stringify({ stem: "Which?", choices: ["this", "that"] }),
            correctAnswerIndex: 0,
            approved: false,
            contested: false,
            createdAt: now,
          })
          .returning(),
      );
      const { userId } = (yield* one(
        s,
        s.db.select({ userId: memoryTrackers.userId }).from(memoryTrackers).where(eq(memoryTrackers.id, tracker!.id)),
      ))!;
      const [made] = yield* all(
        s,
        s.db
          .insert(recallPrompts)
          .values({ userId, memoryTrackerId: tracker!.id, predefinedQuestionId: question!.id, createdAt: now })
          .returning(),
      );
      return made!;
    });
    // A wrong answer: the note is among the learner's most failed ones on the statistics page.
    await ok(learner.post(`/api/recall-prompts/${prompt.id}/answer`, { choiceIndex: 1 }));
    expect((await learner.get("/d/stats")).text).toContain("Lesson");
    return { trackerId: tracker!.id, conversationId: conversation.id, promptId: prompt.id };
  }

  /** Everything the learner still sees once the note is out of reach. */
  async function expectAccessLost(learner: HttpClient, noteId: number, held: Awaited<ReturnType<typeof learnAndTalk>>) {
    expect((await learner.get(`/api/notes/${noteId}`)).status).toBe(403);

    const conversation = await learner.get(`/api/conversation/${held.conversationId}`);
    expect(conversation.status).toBe(200);
    expect(conversation.text).not.toContain(SECRET);
    expect(conversation.body.subject.note).toMatchObject({ id: noteId, unreadable: true, noteTopology: { titleOrPredicate: "" } });
    expect(conversation.body.subjectTitle).toBe("(a note you cannot read)");
    // The conversation and its messages stay.
    const messages = await learner.get(`/api/conversation/${held.conversationId}/messages`);
    expect(messages.body.map((m: { message: string }) => m.message)).toEqual(["What does it mean?", "It means what it says."]);
    expect((await learner.get("/d/message-center")).text).not.toContain(SECRET);

    // The AI no longer replies about the note: nothing is sent to it.
    const asked = fake.chat.requests.length;
    const reply = await learner.post(`/api/conversation/${held.conversationId}/ai-reply`);
    expect(reply.status).toBe(403);
    expect(fake.chat.requests.length).toBe(asked);

    // The tracker is kept for history, its note hidden; it leaves recall.
    const tracker = await learner.get(`/api/memory-trackers/${held.trackerId}`);
    expect(tracker.status).toBe(200);
    expect(tracker.body.note).toMatchObject({ id: noteId, unreadable: true, details: "" });
    for (const list of ["/api/memory-trackers/recent", "/api/memory-trackers/recently-reviewed"]) {
      const recent = await learner.get(list);
      expect(recent.text).not.toContain(SECRET);
      expect(recent.body.find((t: { id: number }) => t.id === held.trackerId).note.unreadable).toBe(true);
    }
    const due = await learner.get("/api/recalls/recalling?timezone=UTC&dueindays=30");
    expect(due.body.toRepeat.map((t: { memoryTrackerId: number }) => t.memoryTrackerId)).not.toContain(held.trackerId);
    expect((await learner.patch(`/api/memory-trackers/${held.trackerId}/mark-as-repeated?successful=true`)).status).toBe(403);
    expect((await learner.get(`/api/memory-trackers/${held.trackerId}/spelling-question`)).status).toBe(403);
    expect((await learner.get("/api/assimilation/assimilating?timezone=UTC")).text).not.toContain(SECRET);

    // Recall prompts about it are refused; the statistics no longer name it.
    expect((await learner.get(`/api/recall-prompts/${held.promptId}`)).status).toBe(403);
    expect((await learner.post(`/api/conversation/recall-prompt/${held.promptId}`, "Why?")).status).toBe(403);
    const stats = await learner.get("/d/stats");
    expect(stats.status).toBe(200);
    expect(stats.text).not.toContain(SECRET);
    expect(stats.text).not.toContain("Lesson");
  }

  beforeEach(async () => {
    owner = await server.client().loginAs("old_learner");
  });

  test("a subscriber, when the owner moves the note into a private notebook and rewrites it", async () => {
    ids = {
      ...(await inject([{ Title: "Shared" }, { Title: "Lesson", "Parent Title": "Shared", Details: "Open text" }])),
      ...(await inject([{ Title: "Diary" }])),
    };
    await ok(server.client().post("/api/testability/share_to_bazaar", { noteTopology: "Shared" }));
    const learner = await server.client().loginAs("another_old_learner");
    const sharedNotebook = (await ok(owner.get<NoteRealmJson>(`/api/notes/${ids.Shared}`))).notebook!.id;
    await ok(learner.post(`/api/subscriptions/notebooks/${sharedNotebook}/subscribe`, { dailyTargetOfNewNotes: 5 }));
    const held = await learnAndTalk(learner, ids.Lesson!);

    await ok(owner.post(`/api/notes/move_after/${ids.Lesson}/${ids.Diary}/true`));
    await ok(owner.patch(`/api/text_content/${ids.Lesson}/details`, { details: SECRET }));
    await ok(owner.patch(`/api/text_content/${ids.Lesson}/title`, { newTitle: `${SECRET} title` }));
    await expectAccessLost(learner, ids.Lesson!, held);

    // The owner still reads everything.
    expect((await owner.get(`/api/conversation/${held.conversationId}`)).body.subject.note.details).toBe(SECRET);
  });

  test("a circle member, when the notebook moves out of their circle", async () => {
    const admin = server.client();
    await ok(admin.post("/api/testability/inject_circle", { circleName: "Team", members: "old_learner, a_trainer" }));
    await ok(admin.post("/api/testability/inject_circle", { circleName: "Elsewhere", members: "old_learner" }));
    ids = await inject([{ Title: "Team book" }, { Title: "Lesson", "Parent Title": "Team book", Details: "Open text" }], "Team");
    const member = await server.client().loginAs("a_trainer");
    const held = await learnAndTalk(member, ids.Lesson!);

    const notebook = (await ok(owner.get<NoteRealmJson>(`/api/notes/${ids.Lesson}`))).notebook!.id;
    const elsewhere = (await ok(owner.get<{ id: number; name: string }[]>("/api/circles"))).find((c) => c.name === "Elsewhere")!.id;
    await ok(owner.patch(`/api/notebooks/${notebook}/move-to-circle/${elsewhere}`));
    await ok(owner.patch(`/api/text_content/${ids.Lesson}/details`, { details: SECRET }));
    await ok(owner.patch(`/api/text_content/${ids.Lesson}/title`, { newTitle: `${SECRET} title` }));
    await expectAccessLost(member, ids.Lesson!, held);
  });
});
