import { describe, expect, test } from "bun:test";
import { type SQL, sql } from "drizzle-orm";
import { importVaultInWorker } from "../../src/operations/vault-import-task";
import { OPERATION_LEASE_MS } from "../../src/store/operations/operations-store";
import { one } from "../../src/store/session";
import { type HttpClient, type TestServer, useTestServer } from "../support/server";
import { inWrite, sqlRow, sqlRows, sqlRun } from "../support/test-database";
import { makePng, makeZip } from "../support/vaults";

/** A vault of `count` notes in one folder, each with a line of text. */
function bigVault(count: number) {
  const files: Record<string, string> = { "Big/__index.md": "# Big\n" };
  for (let i = 0; i < count; i++) files[`Big/note ${i}.md`] = `Note number ${i}.`;
  return makeZip(files);
}

/** The zip with the stored bytes of entry `path` overwritten: it no longer inflates. */
function damageEntry(zip: Uint8Array<ArrayBuffer>, path: string): Uint8Array<ArrayBuffer> {
  const bytes = Buffer.from(zip);
  const header = bytes.indexOf(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04])]), bytes.indexOf(Buffer.from(path)) - 30 - 1);
  const nameLength = bytes.readUInt16LE(header + 26);
  const extraLength = bytes.readUInt16LE(header + 28);
  bytes.fill(0xff, header + 30 + nameLength + extraLength, header + 30 + nameLength + extraLength + 8);
  return new Uint8Array(bytes);
}

async function postImport(server: TestServer, client: HttpClient, notebookId: number, zip: Uint8Array<ArrayBuffer>, prefer?: string) {
  const form = new FormData();
  form.append("file", new File([zip], "vault.zip", { type: "application/zip" }));
  const headers: Record<string, string> = { cookie: `engram_session=${client.sessionCookie}` };
  if (prefer) headers.prefer = prefer;
  const response = await fetch(`${server.url}/api/notebooks/${notebookId}/obsidian`, { method: "POST", body: form, headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function newNotebook(client: HttpClient, title: string) {
  const { noteId } = (await client.post("/api/notebooks/create", { newTitle: title })).body;
  const notebookId = (await client.get(`/api/notes/${noteId}`)).body.notebook.id as number;
  return { headId: noteId as number, notebookId };
}

async function untilFinished(client: HttpClient, id: number) {
  for (;;) {
    const { status, body } = await client.get(`/api/operations/${id}`);
    expect(status).toBe(200);
    if (body.status !== "running") return body;
    await Bun.sleep(20);
  }
}

/** How many rows `from` (a table, maybe with a condition) holds. */
const countOf = async (server: TestServer, from: SQL) =>
  (await sqlRow<{ n: number }>(server, sql`SELECT CAST(count(*) AS integer) AS n FROM ${from}`))!.n;
const liveNotes = (server: TestServer) => countOf(server, sql`notes WHERE deleted_at IS NULL`);
const allNotes = (server: TestServer) => countOf(server, sql`notes`);
const pendingRows = (server: TestServer) => countOf(server, sql`operation_rows`);
/** The first user's id (the one the fixtures create first). */
const firstUserId = async (server: TestServer) => (await sqlRow<{ id: number }>(server, sql`SELECT id FROM users ORDER BY id LIMIT 1`))!.id;

describe("long work as operations", () => {
  const server = useTestServer();

  test("an import asked to answer at once is an operation: its progress counts notes, its result and the notes come when it ends, then it can be dismissed", async () => {
    const learner = await server.client().loginAs("old_learner");
    const { notebookId, headId } = await newNotebook(learner, "Big");
    const started = await postImport(server, learner, notebookId, await bigVault(300), "respond-async");
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ kind: "obsidian-import", label: "vault.zip", status: "running", notebookId });

    const listed = await learner.get("/api/operations");
    expect(listed.body.map((operation: { id: number }) => operation.id)).toContain(started.body.id);

    const finished = await untilFinished(learner, started.body.id as number);
    expect(finished).toMatchObject({ status: "done", phase: "publishing", done: 301, total: 301, error: null });
    expect(finished.result).toEqual({ created: 300, updated: 0, links: 0, images: 0, attachments: 0, skipped: [] });
    // Stamped when it ended, not when it started (the import takes a while).
    expect(Date.parse(finished.finishedAt)).toBeGreaterThan(Date.parse(finished.createdAt));
    expect(Date.parse(finished.finishedAt)).toBeLessThanOrEqual(Date.now());
    const children = await sqlRows(server, sql`SELECT id FROM notes WHERE parent_id = ${headId} AND deleted_at IS NULL`);
    expect(children).toHaveLength(300);
    expect(await pendingRows(server)).toBe(0);

    // Someone else's operation is not theirs to read.
    const other = await server.client().loginAs("another_old_learner");
    expect((await other.get(`/api/operations/${started.body.id}`)).status).toBe(403);
    expect((await server.client().get(`/api/operations/${started.body.id}`)).status).toBe(401);

    // Every page's shell shows the owner's operations until they are dismissed, and no one else's.
    const shellShowsIt = async (client: HttpClient) => {
      const page = await client.get("/");
      expect(page.status).toBe(200);
      return page.text.includes('data-island="operations-status"') && page.text.includes("vault.zip");
    };
    expect(await shellShowsIt(learner)).toBe(true);
    expect(await shellShowsIt(other)).toBe(false);

    expect((await learner.post(`/api/operations/${started.body.id}/dismiss`)).body.status).toBe("done");
    expect((await learner.get("/api/operations")).body).toEqual([]);
    expect(await shellShowsIt(learner)).toBe(false);
  });

  test("a second import into a notebook while one runs is refused with a message; another notebook is not held up", async () => {
    const learner = await server.client().loginAs("old_learner");
    const { notebookId } = await newNotebook(learner, "Busy");
    const userId = await firstUserId(server);
    // An import into the notebook is running (its worker is busy elsewhere).
    const running = (await server.ctx.stores.operations.start(
      { kind: "obsidian-import", userId, notebookId, label: "first.zip" },
      Date.now(),
      Date.now() + OPERATION_LEASE_MS,
    ))!;
    expect(running).toBeDefined();
    const refused = await postImport(server, learner, notebookId, await makeZip({ "Busy/a.md": "a" }));
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("An import into this notebook is still running: wait until it ends, then import again");

    const free = await newNotebook(learner, "Free");
    expect((await postImport(server, learner, free.notebookId, await makeZip({ "Free/a.md": "a" }))).status).toBe(200);
  });

  test("an import that fails after writing embedded files writes nothing: the files go again and the operation says why", async () => {
    const learner = await server.client().loginAs("old_learner");
    const { notebookId } = await newNotebook(learner, "Pictures");
    const imagesBefore = await countOf(server, sql`note_images`);
    const attachmentsBefore = await countOf(server, sql`notebook_attachments`);
    const notesBefore = await allNotes(server);
    const zip = damageEntry(
      await makeZip({
        "Pictures/a.md": "![[good.png]] and ![[bad.png]]",
        "Pictures/b.md": "text",
        "Pictures/good.png": makePng(4, 4),
        "Pictures/bad.png": makePng(5, 5, [1, 2, 3]),
      }),
      "Pictures/bad.png",
    );
    const started = await postImport(server, learner, notebookId, zip, "respond-async");
    const finished = await untilFinished(learner, started.body.id as number);
    expect(finished.status).toBe("failed");
    expect(finished.error).toStartWith('the entry "Pictures/bad.png" is damaged');
    expect(await countOf(server, sql`note_images`)).toBe(imagesBefore);
    expect(await countOf(server, sql`notebook_attachments`)).toBe(attachmentsBefore);
    expect(await allNotes(server)).toBe(notesBefore);
    expect(await pendingRows(server)).toBe(0);
  });

  test("an import stopped after it wrote notes (its operation failed by another process) removes them all", async () => {
    const learner = await server.client().loginAs("old_learner");
    const { notebookId } = await newNotebook(learner, "Big");
    const userId = await firstUserId(server);
    const notesBefore = await allNotes(server);
    const zipPath = `${server.ctx.config.dataDir}/stopped.zip`;
    await Bun.write(zipPath, await bigVault(2000));
    const operation = (await server.ctx.stores.operations.start(
      { kind: "obsidian-import", userId, notebookId, label: "big.zip" },
      Date.now(),
      Date.now() + OPERATION_LEASE_MS,
    ))!;
    // The worker's code, run here: its batches pause, so this test sees the hidden notes and fails the operation meanwhile.
    const run = importVaultInWorker({
      database: server.ctx.database.place,
      operationId: operation.id,
      zipPath,
      notebookId,
      userId,
      now: new Date(),
    });
    const outcome = run.then(
      () => "done",
      (error: Error) => error.message,
    );
    while ((await pendingRows(server)) < 50) await Bun.sleep(1);
    expect(await liveNotes(server)).toBe(notesBefore); // written, but hidden
    await server.ctx.stores.operations.fail(operation.id, "its lease ran out", Date.now());
    expect(await outcome).toBe("the import was stopped (it stopped answering for too long)");
    expect(await allNotes(server)).toBe(notesBefore);
    expect(await pendingRows(server)).toBe(0);
    expect(await server.ctx.stores.operations.find(operation.id)).toMatchObject({ status: "failed", error: "its lease ran out" });
  });

  test("an operation whose worker died is failed and its hidden rows removed when the user's operations are read", async () => {
    const learner = await server.client().loginAs("old_learner");
    const { headId, notebookId } = await newNotebook(learner, "Crashed");
    const userId = await firstUserId(server);
    const operation = (await server.ctx.stores.operations.start(
      { kind: "obsidian-import", userId, notebookId, label: "c.zip" },
      Date.now(),
      Date.now() + OPERATION_LEASE_MS,
    ))!;
    const now = new Date();
    const hidden = (await inWrite(server, function* (s) {
      const row = {
        notebookId,
        parentId: headId,
        title: "half",
        details: "",
        siblingOrder: 9999,
        createdAt: now,
        updatedAt: now,
        deletedAt: now,
      };
      return yield* one(s, s.db.insert(s.t.notes).values(row).returning({ id: s.t.notes.id }));
    }))!;
    await server.ctx.stores.operations.recordPending(operation.id, "note", [hidden.id]);
    await sqlRun(server, sql`UPDATE operations SET lease_until = 0 WHERE id = ${operation.id}`);

    const listed = (await learner.get("/api/operations")).body as { id: number; status: string; error: string }[];
    const reaped = listed.find((o) => o.id === operation.id)!;
    expect(reaped.status).toBe("failed");
    expect(reaped.error).toBe("it stopped before it was done (Engram restarted); nothing of it was kept, try again");
    expect(await sqlRow(server, sql`SELECT id FROM notes WHERE id = ${hidden.id}`)).toBeUndefined();
    // The notebook takes imports again.
    expect((await postImport(server, learner, notebookId, await makeZip({ "Crashed/a.md": "a" }))).status).toBe(200);
  });
});
