/**
 * The roles' SQL and the TypeScript policy agree: for every pair of a user and a notebook in a
 * real database (owner, circle member, subscriber, bazaar reader, stranger), each role's SQL
 * condition holds exactly when notebookRole says so, and the recall condition the lists use
 * holds exactly when mayRecall does.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { readConfig } from "../../src/config";
import { createSqliteContext } from "../../src/context";
import { accounts, notebooks } from "../../src/db/schema";
import { createNotebook } from "../../src/services/notebooks";
import { mayRecall, notebookRole } from "../../src/services/policies";
import { RECALLABLE_NOTEBOOK_SQL, ROLE_SQL } from "../../src/services/policies/roles";
import { subscribe } from "../../src/services/sharing/subscriptions";
import { cleanDatabaseAndResetTestabilitySettings } from "../../src/services/testability/reset";
import { circleIdByName, injectCircle, shareNotebookOfNoteToBazaar } from "../../src/services/testability/sharing";
import type { CurrentUser } from "../../src/services/users";
import { rawAll } from "../../src/store/session";
import { recallableNotebook } from "../../src/store/sharing/access";
import { byAccount } from "../../src/store/users/users-store";

const dataDir = mkdtempSync(join(tmpdir(), "engram-roles-"));
const ctx = createSqliteContext(readConfig({ ENGRAM_MODE: "test", ENGRAM_DATA_DIR: dataDir, PORT: "0" }));
afterAll(() => {
  ctx.sqlite.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function userNamed(externalIdentifier: string): CurrentUser {
  const account = ctx.db.select().from(accounts).where(eq(accounts.externalIdentifier, externalIdentifier)).get()!;
  return { account, user: ctx.database.readNow((s) => byAccount(s, account.id))! };
}

const holds = (condition: string, userId: number, notebookId: number) =>
  ctx.sqlite.query(`SELECT 1 FROM notebooks nb WHERE nb.id = ?2 AND ${condition}`).get(userId, notebookId) !== null;

/** The stores' form of the recall condition (recallableNotebook), asked the same way. */
const recallableInStore = (userId: number, notebookId: number) =>
  ctx.database.readNow((s) =>
    rawAll(
      s,
      sql`SELECT 1 FROM ${s.t.notebooks} WHERE ${s.t.notebooks.id} = ${notebookId} AND ${recallableNotebook(s, s.t.notebooks, userId)}`,
    ),
  ).length > 0;

describe("notebook roles: SQL and TypeScript from one definition", () => {
  let users: CurrentUser[];
  let notebookIds: number[];

  beforeAll(async () => {
    await cleanDatabaseAndResetTestabilitySettings(ctx);
    const [owner, member, subscriber, stranger] = ["old_learner", "another_old_learner", "a_trainer", "admin"].map(userNamed);
    users = [owner!, member!, subscriber!, stranger!];
    const personal = (await createNotebook(ctx, owner!, { newTitle: "Personal" })).notebookId;
    await injectCircle(ctx, "Team", "another_old_learner");
    const team = (await createNotebook(ctx, member!, { newTitle: "Team notes" }, undefined, await circleIdByName(ctx, "Team"))).notebookId;
    const shared = (await createNotebook(ctx, owner!, { newTitle: "Shared" })).notebookId;
    await shareNotebookOfNoteToBazaar(ctx, "Shared");
    await subscribe(ctx, subscriber!, shared, 5);
    notebookIds = [personal, team, shared];
  });

  test("each role's SQL holds exactly when notebookRole names it, and so does the recall condition", async () => {
    const roles = new Set<string>();
    for (const current of users) {
      for (const notebookId of notebookIds) {
        const notebook = ctx.db.select().from(notebooks).where(eq(notebooks.id, notebookId)).get()!;
        const role = await notebookRole(ctx, current, notebook);
        roles.add(role);
        const strongestSqlRole = (Object.keys(ROLE_SQL) as (keyof typeof ROLE_SQL)[]).find((r) =>
          holds(ROLE_SQL[r], current.user.id, notebookId),
        );
        expect(strongestSqlRole ?? "none").toBe(role);
        expect(holds(RECALLABLE_NOTEBOOK_SQL, current.user.id, notebookId)).toBe(mayRecall(role));
        expect(recallableInStore(current.user.id, notebookId)).toBe(mayRecall(role));
      }
    }
    expect([...roles].sort()).toEqual(["bazaar-reader", "circle-member", "none", "owner", "subscriber"]);
  });
});
