/** An import worker told the PostgreSQL URL (npm run test:postgres): it opens its own Database there and writes through it. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PendingWrites } from "../../src/operations/pending-writes";
import { createStores } from "../../src/store";
import { insertLastChildren } from "../../src/store/notes/insert-note";
import { finish, forgetPending, OPERATION_LEASE_MS, publishNotes, recordPending } from "../../src/store/operations/operations-store";
import { openPostgres, type PostgresDatabase } from "../../src/store/postgres-database";
import { notebook, seed, user } from "../stores/seed";
import { freshPostgresDatabase, postgresTestUrl } from "../support/database-under-test";

const url = postgresTestUrl();

describe.skipIf(!url)("an import worker on PostgreSQL", () => {
  let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let server: PostgresDatabase;
  beforeAll(async () => {
    fresh = await freshPostgresDatabase(url!);
    server = await openPostgres(fresh.url, 2);
  });
  afterAll(async () => {
    await server.close();
    await fresh.drop();
  });

  test("opens its Database from the URL; what it publishes, the server's Database reads", async () => {
    const stores = createStores(server);
    const { userId, notebookId, headNoteId } = await seed(server, function* (s) {
      const { userId } = yield* user(s, "worker");
      return { userId, ...(yield* notebook(s, userId, "Imported")) };
    });
    const now = Date.now();
    const operation = (await stores.operations.start(
      { kind: "obsidian-import", userId, notebookId, label: "v.zip" },
      now,
      now + OPERATION_LEASE_MS,
    ))!;
    const writes = await PendingWrites.open({ postgresUrl: fresh.url }, operation.id, new Date(now));
    try {
      const at = writes.now;
      await writes.batch(function* (s) {
        const rows = yield* insertLastChildren(s, at, [
          { parent: { id: headNoteId, notebookId }, columns: { title: "From the worker", deletedAt: at } },
        ]);
        yield* recordPending(
          s,
          operation.id,
          "note",
          rows.map((row) => row.id),
        );
      });
      expect(await stores.notes.childrenOf(headNoteId)).toEqual([]);
      await writes.publish(function* (s) {
        yield* publishNotes(s, operation.id);
        yield* forgetPending(s, operation.id);
        yield* finish(s, operation.id, {}, writes.clock());
      });
    } finally {
      await writes.close();
    }
    expect((await stores.notes.childrenOf(headNoteId)).map((row) => row.title)).toEqual(["From the worker"]);
    expect((await stores.operations.find(operation.id))?.status).toBe("done");
  });
});
