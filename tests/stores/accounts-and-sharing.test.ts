/** The stores moved onto the data layer since (accounts, users, settings, failure reports, admin, sharing's reads), on both databases. */
import { describe, expect, test } from "bun:test";
import { accountsStore } from "../../src/store/accounts/accounts-store";
import { run } from "../../src/store/session";
import { notebooksOfNotes, notebookTie, othersHoldNotebook, reachableNotebookIds, readerAccess } from "../../src/store/sharing/access";
import { databaseUnderTest, databaseUnderTestOfFile } from "../support/database-under-test";
import { note, notebook, user } from "./seed";

const under = databaseUnderTestOfFile();

const now = new Date(1_000_000);

describe("accounts and users stores", () => {
  test("the first sign-up is the admin; a taken login is refused; a profile and tokens follow the account", async () => {
    const { accounts, users } = under.stores;
    expect(await accounts.none()).toBe(true);
    const first = await accounts.signUp("ann", "hash-a", now);
    expect(first).toMatchObject({ externalIdentifier: "ann", admin: true, createdAt: now });
    expect(await accounts.signUp("ann", "hash-b", now)).toBe("taken");
    const second = await accounts.signUp("bob", "hash-b", now);
    expect(second).toMatchObject({ admin: false });
    if (first === "taken") throw new Error("unreachable");
    expect((await accounts.byLogin("ann"))?.id).toBe(first.id);
    const profile = await users.createProfile(first.id, "Ann", now);
    expect(profile).toMatchObject({ name: "Ann", accountId: first.id });
    expect(await users.createProfile(first.id, "Again", now)).toBe("exists");
    if (profile === "exists") throw new Error("unreachable");
    expect((await users.updateSettings(profile.id, { dailyAssimilationCount: 7 }))?.dailyAssimilationCount).toBe(7);
    const token = await users.createToken({ userId: profile.id, label: "cli", tokenHash: "t-1", expiresAt: null }, now);
    expect((await users.authenticateToken("t-1", now))?.user.id).toBe(profile.id);
    expect(await users.tokensOf(profile.id)).toHaveLength(1);
    expect(await users.deleteToken(profile.id, token.id)).toBe(true);
    expect(await users.authenticateToken("t-1", now)).toBeUndefined();
    const names = await accounts.listWithNames();
    expect(names.map((row) => [row.account.externalIdentifier, row.name])).toEqual([
      ["ann", "Ann"],
      ["bob", null],
    ]);
    expect(await accounts.createPasswordReset(first.id, "reset-1", new Date(now.getTime() + 60_000), now)).toBe(true);
    expect((await accounts.passwordResetAccount("reset-1", now))?.id).toBe(first.id);
    expect(await accounts.spendPasswordReset("reset-1", first.id, "hash-new", now)).toBe(true);
    expect(await accounts.spendPasswordReset("reset-1", first.id, "hash-again", now)).toBe(false);
  });
});

describe("settings, failure reports and admin stores", () => {
  test("settings are upserted; failure reports listed and removed; the admin reads a notebook's notes", async () => {
    const { settings, failureReports, admin } = under.stores;
    expect(await settings.setting("model")).toBeUndefined();
    await settings.setSettings({ model: "a", other: "b" }, now);
    await settings.setSettings({ model: "c" }, now);
    expect(await settings.setting("model")).toBe("c");
    const report = await failureReports.record({ errorName: "Error", errorDetail: "boom" }, now);
    expect((await failureReports.list()).map((r) => r.id)).toEqual([report.id]);
    expect((await failureReports.byId(report.id))?.createDatetime).toEqual(now);
    expect(await failureReports.remove([report.id])).toBe(1);
    const ann = await under.database.write((s) => user(s, "admin-reader"));
    const { notebookId, headNoteId } = await under.database.write((s) => notebook(s, ann.userId));
    await under.database.write((s) => note(s, notebookId, headNoteId, "Child"));
    expect((await admin.notebookNotes(notebookId)).map((n) => n.title).sort()).toEqual(["Child", "Head"]);
  });
});

describe("sharing's reads", () => {
  test("the notebooks a user reaches, the notebooks of notes, and whether others hold a notebook", async () => {
    const ann = await under.database.write((s) => user(s, "share-ann"));
    const bob = await under.database.write((s) => user(s, "share-bob"));
    const own = await under.database.write((s) => notebook(s, ann.userId));
    const theirs = await under.database.write((s) => notebook(s, bob.userId));
    await under.database.write((s) =>
      run(s, s.db.insert(s.t.subscriptions).values({ userId: ann.userId, notebookId: theirs.notebookId, createdAt: now })),
    );
    expect(await under.database.read((s) => reachableNotebookIds(s, ann.userId, ["own"]))).toEqual([own.notebookId]);
    expect(await under.database.read((s) => reachableNotebookIds(s, ann.userId, ["own", "subscriptions", "circles"]))).toEqual(
      [own.notebookId, theirs.notebookId].sort((a, b) => a - b),
    );
    expect(await under.database.read((s) => notebooksOfNotes(s, [own.headNoteId, theirs.headNoteId, 999_999]))).toEqual(
      expect.arrayContaining([
        { id: own.headNoteId, notebookId: own.notebookId },
        { id: theirs.headNoteId, notebookId: theirs.notebookId },
      ]),
    );
    expect(await under.database.read((s) => othersHoldNotebook(s, theirs.notebookId))).toBe(true);
    expect(await under.database.read((s) => othersHoldNotebook(s, own.notebookId))).toBe(false);
  });

  test("a reader's ties to a notebook, and the access version and bazaar notebooks read in one snapshot", async () => {
    const cy = await under.database.write((s) => user(s, "tie-cy"));
    const dee = await under.database.write((s) => user(s, "tie-dee"));
    const plain = await under.database.write((s) => notebook(s, cy.userId));
    const shared = await under.database.write((s) => notebook(s, cy.userId));
    await under.database.write((s) => run(s, s.db.insert(s.t.bazaarNotebooks).values({ notebookId: shared.notebookId, createdAt: now })));
    const tie = (userId: number | undefined, notebookId: number) =>
      under.database.read((s) => notebookTie(s, userId, { id: notebookId, circleId: null }));
    expect(await tie(dee.userId, plain.notebookId)).toBe("none");
    expect(await tie(undefined, shared.notebookId)).toBe("bazaar");

    const visitor = await under.database.read((s) => readerAccess(s, undefined));
    expect(visitor.accessVersion).toBeUndefined();
    expect(visitor.bazaar).toContain(shared.notebookId);
    expect(visitor.bazaar).not.toContain(plain.notebookId);
    const before = (await under.database.read((s) => readerAccess(s, dee.userId))).accessVersion;
    expect(typeof before).toBe("number");
    await under.database.write((s) =>
      run(s, s.db.insert(s.t.subscriptions).values({ userId: dee.userId, notebookId: plain.notebookId, createdAt: now })),
    );
    expect(await tie(dee.userId, plain.notebookId)).toBe("subscriber");
    // A subscription raises the user's access version, under which their readable notebooks are kept.
    expect((await under.database.read((s) => readerAccess(s, dee.userId))).accessVersion).not.toBe(before);
  });
});

describe("sign-ups at once, as from several processes", () => {
  test("of six first sign-ups through two connections exactly one is the admin; one login is taken once", async () => {
    const fresh = await databaseUnderTest();
    try {
      const stores = [accountsStore(fresh.database), accountsStore(await fresh.another())];
      const firsts = await Promise.all(Array.from({ length: 6 }, (_, i) => stores[i % 2]!.signUp(`learner-${i}`, "hash", now)));
      expect(firsts.filter((account) => account !== "taken" && account.admin)).toHaveLength(1);
      const same = await Promise.all(Array.from({ length: 4 }, (_, i) => stores[i % 2]!.signUp("same", "hash", now)));
      expect(same.filter((account) => account === "taken")).toHaveLength(3);
    } finally {
      await fresh.dispose();
    }
  });
});
