/**
 * Several Engram processes on one database behave as one app: each background job runs once, a
 * sign-in limit is shared, an AI reply streamed by one process is cancelled through another, a
 * write through one is seen on the next request to another (their caches follow the database),
 * a note open on one hears a save made through another, a double-submitted create sent to both
 * makes one notebook, and each automatic backup is taken once. Real server processes
 * (src/main.ts), each test against a fresh database; the database is a parameter of the helper,
 * so the same tests can run on another database.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { type FakeOpenAI, startFakeOpenAI } from "../fakes";
import { type DatabaseUnderTest, databasesUnderTest, type EngramProcess, startEngramProcesses } from "../support/engram-processes";
import { injectNotes } from "../support/notes";
import type { HttpClient } from "../support/server";
import { sqliteOnly } from "../support/sqlite-only";
import { eventReader, streamText } from "../support/sse";

const TIMEOUT = 60_000;

/** Waits until `done` answers true (checked every 50 ms), at most `ms`. */
async function eventually(done: () => boolean | Promise<boolean>, ms = 20_000) {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await Bun.sleep(50)) if (await done()) return;
  throw new Error("not reached in time");
}

describe.each(databasesUnderTest())("two Engram processes on one %s database", (name, newDatabase) => {
  let fake: FakeOpenAI;
  let database: DatabaseUnderTest;
  let processes: EngramProcess[] = [];
  beforeAll(async () => {
    fake = await startFakeOpenAI({ streamChunkDelayMs: 150 });
  });
  afterAll(() => fake.stop());
  afterEach(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    processes = [];
    await database.dispose();
  });

  /** Two processes on a fresh database with the test profiles, the fake AI provider behind both. */
  async function twoProcesses(env: Record<string, string> = {}): Promise<[EngramProcess, EngramProcess]> {
    fake.reset();
    database = await newDatabase();
    processes = await startEngramProcesses(database, 2, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: fake.url, ...env });
    const reset = await processes[0]!.client().post("/api/testability/clean_db_and_reset_testability_settings");
    expect(reset.status).toBe(200);
    return [processes[0]!, processes[1]!];
  }

  test(
    "each note's embedding job runs once, though both processes relay the changes and claim from the one queue",
    async () => {
      const [a, b] = await twoProcesses();
      const texts: string[] = [];
      for (const [process, prefix] of [
        [a, "Alpha"],
        [b, "Beta"],
      ] as const) {
        const learner = await process.client().loginAs("old_learner");
        const rows = Array.from({ length: 15 }, (_, i) => ({ Title: `${prefix} ${i}`, Details: `text of ${prefix} ${i}` }));
        await injectNotes(learner, rows);
        texts.push(...rows.map((row) => `Title: ${row.Title}\nDetails:\n${row.Details}`));
      }
      const embedded = () => fake.embeddings.requests.flatMap((request) => request.input as string[]);
      await eventually(() => texts.every((text) => embedded().includes(text)));
      await Bun.sleep(2500); // more worker rounds on both processes: nothing runs twice
      for (const text of texts) expect(embedded().filter((input) => input === text)).toHaveLength(1);
    },
    TIMEOUT,
  );

  test(
    "a sign-in limit is shared: parallel wrong passwords sent to both are counted together, five at most, and the account is locked on both",
    async () => {
      const [a, b] = await twoProcesses();
      expect((await a.client().signUp("alice", "alice password")).status).toBe(303);
      const guesses = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? b : a).client().signIn("alice", `guess ${i}`)));
      expect(guesses.filter((response) => response.status === 400)).toHaveLength(5);
      expect(guesses.filter((response) => response.status === 429)).toHaveLength(7);
      for (const process of [a, b]) {
        const locked = await process.client().signIn("alice", "alice password");
        expect(locked.status).toBe(429);
        expect(locked.text).toContain("Too many attempts, try again in");
      }
    },
    TIMEOUT,
  );

  /** A reply streamed by A, cancelled through B: the stream's whole text. */
  async function replyCancelledThroughTheOther(env: Record<string, string> = {}) {
    const [a, b] = await twoProcesses(env);
    const anonymous = a.client();
    const ids = await injectNotes(anonymous, [{ Title: "Baking" }, { Title: "Sourdough", "Parent Title": "Baking" }], "old_learner");
    await anonymous.post("/api/testability/share_to_bazaar", { noteTopology: "Baking" });
    const reader = await a.client().loginAs("another_old_learner");
    const conversationId = (await reader.post(`/api/conversation/note/${ids.Sourdough}`, "What feeds the starter?")).body.id;
    const words = Array.from({ length: 30 }, (_, i) => `word${i + 1}`);
    fake.chat.respondWithText(words.join(" "));
    const response = await fetch(`${a.url}/api/conversation/${conversationId}/ai-reply`, {
      method: "POST",
      headers: { cookie: `engram_session=${reader.sessionCookie}` },
    });
    const stream = streamText(response);
    let text = await stream.until("thread.message.delta");
    const run = JSON.parse(/event: thread\.run\.created\ndata: (.*)/.exec(text)![1]!);
    const cancelled = await b.clientLike(reader).post(`/api/ai/cancel-run/${run.thread_id}/${run.id}`);
    expect(cancelled.status).toBe(200);
    text = await stream.toEnd();
    const messages = await b.clientLike(reader).get(`/api/conversation/${conversationId}/messages`);
    expect(messages.body).toHaveLength(1);
    return text;
  }

  test(
    "an AI reply streamed by one process stops when it is cancelled through the other",
    async () => {
      const text = await replyCancelledThroughTheOther();
      expect(text).toContain('"message":"The reply was cancelled"');
      expect(text).not.toContain("word30");
    },
    TIMEOUT,
  );

  // The stream lasts 4.5 s (30 chunks, 150 ms apart); with the poll set to ten minutes only the
  // wake-up (PostgreSQL's NOTIFY of the run's new state) can stop it before its last word.
  test.skipIf(name !== "PostgreSQL")(
    "the cancel through the other process is heard at once (a NOTIFY), not at the next poll",
    async () => {
      const text = await replyCancelledThroughTheOther({ ENGRAM_TEST_RUN_WATCH_MS: "600000" });
      expect(text).toContain('"message":"The reply was cancelled"');
      expect(text).not.toContain("word30");
    },
    TIMEOUT,
  );

  test(
    "a write through one process is seen on the next request to the other: a renamed user, a new notebook, a sign-out",
    async () => {
      const [a, b] = await twoProcesses();
      const onA = await a.client().loginAs("old_learner");
      const onB = b.clientLike(onA);
      const search = async (client: HttpClient) =>
        (await client.post("/api/notes/search", { searchKey: "quasar", allMyNotebooksAndSubscriptions: true })).body.map(
          (hit: { noteTopology: { titleOrPredicate: string } }) => hit.noteTopology.titleOrPredicate,
        );
      const me = (await onB.get("/api/user")).body; // B keeps the session, user and readable notebooks
      expect(await search(onB)).toEqual([]);
      expect((await onA.patch(`/api/user/${me.id}`, { name: "Renamed Learner" })).status).toBe(200);
      expect((await onB.get("/api/user")).body.name).toBe("Renamed Learner");
      await injectNotes(onA, [{ Title: "Quasar facts" }]);
      expect(await search(onB)).toEqual(["Quasar facts"]);
      expect((await onA.request("POST", "/logout")).status).toBe(204);
      expect((await onB.get("/api/user")).status).toBe(401);
    },
    TIMEOUT,
  );

  test(
    "a note open on one process hears a save made through the other",
    async () => {
      const [a, b] = await twoProcesses();
      const onA = await a.client().loginAs("old_learner");
      const ids = await injectNotes(onA, [{ Title: "Mitochondria", Details: "Powerhouse." }]);
      const controller = new AbortController();
      const stream = await fetch(`${b.url}/api/notes/${ids.Mitochondria}/changes`, {
        headers: { cookie: `engram_session=${onA.sessionCookie}` },
        signal: controller.signal,
      });
      expect(stream.status).toBe(200);
      const next = eventReader(stream);
      expect(await next()).toEqual({ event: "revisions", data: { titleRevision: 0, detailsRevision: 0 } });
      expect((await onA.patch(`/api/text_content/${ids.Mitochondria}/details`, { details: "Powerhouse of the cell." })).status).toBe(200);
      expect(await next()).toEqual({ event: "revisions", data: { titleRevision: 0, detailsRevision: 1 } });
      controller.abort();
    },
    TIMEOUT,
  );

  test(
    "a create sent twice with one request id, once to each process, makes one notebook",
    async () => {
      const [a, b] = await twoProcesses();
      const onA = await a.client().loginAs("old_learner");
      const onB = b.clientLike(onA);
      const body = { newTitle: "Spanish", requestId: "dialog-1" };
      const [first, second] = await Promise.all([onA.post("/api/notebooks/create", body), onB.post("/api/notebooks/create", body)]);
      expect(first.status).toBe(200);
      expect(second.body).toEqual(first.body);
      const notebooks = (await onB.get("/api/notebooks")).body;
      expect(JSON.stringify(notebooks).match(/"Spanish"/g)).toHaveLength(1);
    },
    TIMEOUT,
  );

  sqliteOnly("Engram's own backups; on PostgreSQL they are the operator's", name === "PostgreSQL").test(
    "each automatic backup is taken by one process: in every round one writes it and the other leaves it",
    async () => {
      // An interval of 3.6 s: both processes plan their rounds alike and tick a moment apart.
      const [a, b] = await twoProcesses({ ENGRAM_BACKUP_INTERVAL: "0.001" });
      const rounds = (process: EngramProcess) => process.lines.filter((line) => /^Backup (written|left)/.test(line));
      await eventually(() => rounds(a).length >= 2 && rounds(b).length >= 2, 30_000);
      const both = Math.min(rounds(a).length, rounds(b).length);
      for (let i = 0; i < both; i++) {
        const written = [rounds(a)[i]!, rounds(b)[i]!].filter((line) => line.startsWith("Backup written"));
        expect(written).toHaveLength(1);
      }
      const files = readdirSync(join(database.env.ENGRAM_DATA_DIR!, "backups")).filter((name) => name.endsWith(".db"));
      const writtenLines = [...rounds(a), ...rounds(b)].filter((line) => line.startsWith("Backup written"));
      expect(files.length).toBe(writtenLines.length);
    },
    TIMEOUT,
  );
});
