import { describe, expect, test } from "bun:test";
import { aiRunsStore } from "../../src/store/ai-runs/ai-runs-store";
import { all, run } from "../../src/store/session";
import { databaseUnderTestOfFile } from "../support/database-under-test";
import { conversation, user } from "./seed";

const under = databaseUnderTestOfFile();

describe("sessions store", () => {
  test("a session is read with its account, user and the account's version; touching it raises the version", async () => {
    const { accountId, userId } = await under.database.write((s) => user(s, "ann", 0));
    await under.database.write(function* (s) {
      yield* run(s, s.db.insert(s.t.sessions).values({ id: "hash-1", accountId, expiresAt: new Date(86_400_000), createdAt: new Date(0) }));
    });
    const { sessions } = under.stores;
    const found = await sessions.lookup("hash-1");
    expect(found?.account.externalIdentifier).toBe("ann");
    expect(found?.user?.id).toBe(userId);
    expect(found?.session.expiresAt).toEqual(new Date(86_400_000));
    expect(found?.account.admin).toBe(false);
    const before = found!.version;
    expect(before).toBeGreaterThan(0);
    await sessions.touch("hash-1", accountId, { lastUsedAt: new Date(60_000) });
    const after = await sessions.lookup("hash-1");
    expect(after?.account.lastSeenAt).toEqual(new Date(60_000));
    expect(after!.version).toBeGreaterThan(before);
    expect(await sessions.accountVersion(accountId)).toBe(after!.version);
    await sessions.remove("hash-1");
    expect(await sessions.lookup("hash-1")).toBeNull();
    expect(await sessions.lookup("no-such")).toBeNull();
  });
});

describe("AI runs store", () => {
  test("a run streams, waits for tools, resumes and completes with its reply saved; a cancel through another process is seen", async () => {
    const { userId } = await under.database.write((s) => user(s, "cy", 0));
    const conversationId = await under.database.write((s) => conversation(s, userId));
    const { aiRuns } = under.stores;
    const { thread, run } = await aiRuns.start(conversationId, 10);
    expect(run.status).toBe("in_progress");
    expect((await aiRuns.thread(thread.id))?.conversationId).toBe(conversationId);
    await aiRuns.waitForTools(run.id, { messages: "[]", pendingToolCalls: "[1]", replySoFar: "Hal" }, 20);
    expect((await aiRuns.runOf(thread.id, run.id))?.status).toBe("requires_action");
    expect(await aiRuns.resume(run.id, 30)).toBe(true);
    expect(await aiRuns.resume(run.id, 31)).toBe(false);
    expect(await aiRuns.complete(run.id, conversationId, "Hello", 40)).toBe(true);
    const messages = await under.database.read((s) => all(s, s.db.select().from(s.t.conversationMessages)));
    expect(messages.map((m) => [m.message, m.senderUserId, m.readByReceiver])).toEqual([["Hello", null, false]]);

    const second = await aiRuns.start(conversationId, 50);
    expect(second.thread.id).toBe(thread.id);
    const other = aiRunsStore(await under.another());
    expect(await other.cancel(second.run.id, 60)).toBe(true);
    expect(await aiRuns.cancelledAmong([run.id, second.run.id])).toEqual([second.run.id]);
    expect(await aiRuns.complete(second.run.id, conversationId, "late", 70)).toBe(false);
    expect(await aiRuns.fail(second.run.id, 80)).toBe("cancelled");
  });
});
