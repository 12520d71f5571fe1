/**
 * Conversations between people over real HTTP: who starts them about what, who reads and posts,
 * unread counts, and refusals for everyone else.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { type HttpClient, useTestServer } from "../support/server";

describe("conversations", () => {
  const server = useTestServer();
  let owner: HttpClient;
  let reader: HttpClient;
  let stranger: HttpClient;
  let ids: Record<string, number>;

  beforeEach(async () => {
    ids = (
      await server.client().post("/api/testability/inject_notes", {
        externalIdentifier: "old_learner",
        circleName: null,
        noteTestData: [
          { Title: "Shared" },
          { Title: "Bread", "Parent Title": "Shared" },
          { Title: "Private" },
          { Title: "Secret", "Parent Title": "Private" },
        ],
      })
    ).body;
    await server.client().post("/api/testability/share_to_bazaar", { noteTopology: "Shared" });
    owner = await server.client().loginAs("old_learner");
    reader = await server.client().loginAs("another_old_learner");
    stranger = await server.client().loginAs("non_admin");
  });

  test("each party sees whom they talk with and whether they may edit the note; a note of one's own is with the AI alone", async () => {
    const started = (await reader.post(`/api/conversation/note/${ids.Bread}`, "Is this sourdough?")).body;
    expect(started).toMatchObject({ otherPartyName: "Old Learner", mayEditNote: false });
    const asOwner = (await owner.get(`/api/conversation/${started.id}`)).body;
    expect(asOwner).toMatchObject({ otherPartyName: "Another Old Learner", mayEditNote: true });
    const ownNote = (await owner.post(`/api/conversation/note/${ids.Secret}`, "Explain it to me")).body;
    expect(ownNote.mayEditNote).toBe(true);
    expect(ownNote).not.toHaveProperty("otherPartyName");
  });

  test("a bazaar reader starts a conversation about a note; the owner sees it unread, reads and answers", async () => {
    const started = await reader.post(`/api/conversation/note/${ids.Bread}`, "Is this sourdough?");
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      subject: { note: { id: ids.Bread } },
      subjectTitle: "Bread",
      subjectOwnership: { ownerName: "Old Learner" },
      conversationInitiator: { name: "Another Old Learner", externalIdentifier: "another_old_learner" },
    });
    const id = started.body.id;
    // The owner sees the initiator by name; the login stays the initiator's own.
    const initiator = (await owner.get(`/api/conversation/note/${ids.Bread}`)).body[0].conversationInitiator;
    expect(initiator).toEqual({
      id: started.body.conversationInitiator.id,
      name: "Another Old Learner",
      externalIdentifier: `user#${initiator.id}`,
    });
    // Unread answers the unread messages themselves (ConversationMessage), oldest first.
    expect((await reader.post(`/api/conversation/${id}/send`, { message: "Or a yeast bread?" })).status).toBe(200);
    const unread = (await owner.get("/api/conversation/unread")).body;
    expect(unread).toEqual([
      { id: expect.any(Number), message: "Is this sourdough?", sender: initiator, readByReceiver: false, createdAt: expect.any(String) },
      { id: expect.any(Number), message: "Or a yeast bread?", sender: initiator, readByReceiver: false, createdAt: expect.any(String) },
    ]);
    expect((await reader.get("/api/conversation/unread")).body).toEqual([]);
    const list = (await owner.get("/api/conversation/all")).body;
    expect(list).toHaveLength(1);
    expect(list[0].unread).toBe(true);
    expect((await owner.get(`/api/conversation/${id}`)).status).toBe(200); // reading marks it read
    expect((await owner.get("/api/conversation/unread")).body).toEqual([]);
    const reply = await owner.post(`/api/conversation/${id}/send`, { message: "Yes, a rye starter." });
    expect(reply.body).toMatchObject({
      message: "Yes, a rye starter.",
      sender: { name: "Old Learner", externalIdentifier: "old_learner" },
    });
    expect((await reader.get("/api/conversation/unread")).body).toHaveLength(1);
    const messages = (await reader.get(`/api/conversation/${id}/messages`)).body;
    expect(messages.map((m: { message: string }) => m.message)).toEqual(["Is this sourdough?", "Or a yeast bread?", "Yes, a rye starter."]);
    const markedRead = await reader.patch(`/api/conversation/${id}/read`);
    expect(markedRead.status).toBe(200);
    expect(markedRead.body).toEqual([]); // the messages still unread
    expect((await reader.get("/api/conversation/unread")).body).toEqual([]);
    expect((await reader.get(`/api/conversation/note/${ids.Bread}`)).body.map((c: { id: number }) => c.id)).toEqual([id]);
  });

  test("nobody else reads, posts or lists it; blank messages and private notes are refused", async () => {
    const id = (await reader.post(`/api/conversation/note/${ids.Bread}`, { message: "Hello" })).body.id;
    for (const [method, path, body] of [
      ["GET", `/api/conversation/${id}`],
      ["GET", `/api/conversation/${id}/messages`],
      ["POST", `/api/conversation/${id}/send`, "intrude"],
      ["PATCH", `/api/conversation/${id}/read`],
    ] as const) {
      expect((await stranger.request(method, path, body === undefined ? {} : { json: body })).status).toBe(403);
      expect((await server.client().request(method, path, body === undefined ? {} : { json: body })).status).toBe(401);
    }
    expect((await stranger.get("/api/conversation/all")).body).toEqual([]);
    expect((await stranger.get(`/api/conversation/note/${ids.Bread}`)).body).toEqual([]);
    expect((await reader.post(`/api/conversation/${id}/send`, "   ")).body.errors.message).toBeString();
    const secret = await reader.post(`/api/conversation/note/${ids.Secret}`, "Let me in");
    expect(secret.status).toBe(403);
    expect(secret.text).not.toContain("Secret");
    expect((await reader.get("/api/conversation/999999")).status).toBe(404);
  });

  test("a circle notebook's conversation reaches every member; one reading it marks it read for all", async () => {
    await server.client().post("/api/testability/inject_circle", { circleName: "Bakers", members: "old_learner, a_trainer" });
    const circleIds = (
      await server.client().post("/api/testability/inject_notes", {
        externalIdentifier: "old_learner",
        circleName: "Bakers",
        noteTestData: [{ Title: "Circle loaf" }],
      })
    ).body;
    await server.client().post("/api/testability/share_to_bazaar", { noteTopology: "Circle loaf" });
    const started = await reader.post(`/api/conversation/note/${circleIds["Circle loaf"]}`, "Nice loaf");
    expect(started.body.subjectOwnership).toMatchObject({ circle: { name: "Bakers" } });
    const trainer = await server.client().loginAs("a_trainer");
    expect((await trainer.get("/api/conversation/unread")).body).toHaveLength(1);
    expect((await owner.get("/api/conversation/unread")).body).toHaveLength(1);
    await trainer.get(`/api/conversation/${started.body.id}`);
    expect((await owner.get("/api/conversation/unread")).body).toEqual([]);
    expect((await stranger.get(`/api/conversation/${started.body.id}`)).status).toBe(403);
  });
});
