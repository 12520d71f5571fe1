/**
 * Sharing and the one permission policy: the bazaar, subscriptions and circles, tested over real
 * HTTP as each actor (owner, circle member, subscriber, stranger, anonymous) against each kind of
 * notebook (bazaar, private, circle).
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { declaredAccess } from "../../src/services/policies/api-access";
import { assimilate, assimilatingTitles, recallingTitles, travelTo } from "../support/learning";
import { PUBLIC_API_ROUTES } from "../support/public-routes";
import { appRoutes, type HttpClient, useTestServer } from "../support/server";

type Actor = "owner" | "member" | "subscriber" | "stranger" | "anonymous";

describe("sharing", () => {
  const server = useTestServer();
  const clients = {} as Record<Actor, HttpClient>;
  let ids: Record<string, number>;
  let sharedNotebookId: number;

  const inject = async (
    rows: { Title: string; "Parent Title"?: string }[],
    externalIdentifier: string,
    circleName: string | null = null,
  ) => {
    const result = await server.client().post("/api/testability/inject_notes", { externalIdentifier, circleName, noteTestData: rows });
    expect(result.status).toBe(200);
    return result.body as Record<string, number>;
  };

  beforeEach(async () => {
    const admin = server.client();
    await travelTo(admin, 1);
    expect(
      (await admin.post("/api/testability/inject_circle", { circleName: "Team", members: "another_old_learner, a_trainer" })).status,
    ).toBe(200);
    ids = {
      ...(await inject(
        [
          { Title: "Shared Book" },
          { Title: "Apple", "Parent Title": "Shared Book" },
          { Title: "Banana", "Parent Title": "Shared Book" },
          { Title: "Cherry", "Parent Title": "Shared Book" },
          { Title: "Private Book" },
          { Title: "Secret plans", "Parent Title": "Private Book" },
        ],
        "old_learner",
      )),
      ...(await inject([{ Title: "Circle Book" }, { Title: "Circle Note", "Parent Title": "Circle Book" }], "a_trainer", "Team")),
    };
    expect((await admin.post("/api/testability/share_to_bazaar", { noteTopology: "Shared Book" })).status).toBe(200);
    clients.owner = await server.client().loginAs("old_learner");
    clients.member = await server.client().loginAs("another_old_learner");
    clients.subscriber = await server.client().loginAs("non_admin");
    clients.stranger = await server.client().loginAs("admin");
    clients.anonymous = server.client();
    sharedNotebookId = (await clients.owner.get(`/api/notes/${ids["Shared Book"]}`)).body.notebook.id;
    expect(
      (await clients.subscriber.post(`/api/subscriptions/notebooks/${sharedNotebookId}/subscribe`, { dailyTargetOfNewNotes: 2 })).status,
    ).toBe(200);
  });

  // actor × notebook: the status of reading a note and of editing its title.
  const expected: Record<string, Record<Actor, [read: number, edit: number]>> = {
    Apple: { owner: [200, 200], member: [200, 403], subscriber: [200, 403], stranger: [200, 403], anonymous: [200, 401] },
    "Secret plans": { owner: [200, 200], member: [403, 403], subscriber: [403, 403], stranger: [403, 403], anonymous: [401, 401] },
    "Circle Note": { owner: [403, 403], member: [200, 200], subscriber: [403, 403], stranger: [403, 403], anonymous: [401, 401] },
  };
  for (const [title, byActor] of Object.entries(expected)) {
    for (const [actor, [read, edit]] of Object.entries(byActor) as [Actor, [number, number]][]) {
      test(`${actor} reading "${title}" gets ${read}, editing it ${edit}, and a refusal never names it`, async () => {
        const client = clients[actor];
        const realm = await client.get(`/api/notes/${ids[title]}`);
        expect(realm.status).toBe(read);
        const titleEdit = await client.patch(`/api/text_content/${ids[title]}/title`, { newTitle: `${title} (edited)` });
        expect(titleEdit.status).toBe(edit);
        for (const refused of [realm, titleEdit].filter((r) => r.status >= 400)) expect(refused.text).not.toContain(title);
        const details = await client.get(`/api/notes/${ids[title]}/descendants`);
        expect(details.status).toBe(read);
        for (const more of ["graph?tokenLimit=1000", "accessory"]) {
          const answer = await client.get(`/api/notes/${ids[title]}/${more}`);
          expect(`${more} ${answer.status}`).toBe(`${more} ${read}`);
          if (read !== 200) expect(answer.text).not.toContain(title);
        }
        const child = await client.post(`/api/notes/${ids[title]}/create`, { newTitle: "A new child" });
        expect(child.status).toBe(edit);
        const page = await client.get(`/n${ids[title]}`);
        expect(page.status).toBe(read === 401 ? 302 : read);
        if (read !== 200) expect(page.text).not.toContain(title);
        if (read === 200) {
          // read as a bazaar reader: by anyone who neither owns it nor subscribes to it
          expect(realm.body.fromBazaar).toBe(title === "Apple" && actor !== "owner" && actor !== "subscriber");
        } else {
          expect(details.text).not.toContain(title);
        }
      });
    }
  }

  test("the note page of a bazaar notebook is read only for a visitor and shows its notes; a private one is refused without its title", async () => {
    const page = await fetch(`${server.url}/n${ids.Apple}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Apple");
    expect(html).toContain('href="/d/bazaar"');
    const privatePage = await fetch(`${server.url}/n${ids["Secret plans"]}`, { redirect: "manual" });
    expect([302, 303, 401, 403, 404]).toContain(privatePage.status);
    expect(await privatePage.text()).not.toContain("Secret plans");
  });

  describe("bazaar", () => {
    test("anyone lists the bazaar; the owner shares, a stranger cannot share a private notebook, an admin removes an entry", async () => {
      const listed = await clients.anonymous.get("/api/bazaar");
      expect(listed.status).toBe(200);
      expect(listed.body.map((e: { notebook: { title: string } }) => e.notebook.title)).toEqual(["Shared Book"]);
      const privateNotebookId = (await clients.owner.get(`/api/notes/${ids["Private Book"]}`)).body.notebook.id;
      expect((await clients.stranger.post(`/api/notebooks/${privateNotebookId}/share`)).status).toBe(403);
      expect((await clients.anonymous.post(`/api/notebooks/${privateNotebookId}/share`)).status).toBe(401);
      const shared = await clients.owner.post(`/api/notebooks/${privateNotebookId}/share`);
      expect(shared.status).toBe(200);
      expect(shared.body).toMatchObject({ id: privateNotebookId, title: "Private Book" }); // the Notebook, as the contract has it
      expect((await clients.owner.post(`/api/notebooks/${privateNotebookId}/share`)).status).toBe(200); // again: no change
      const entries = (await clients.anonymous.get("/api/bazaar")).body;
      expect(entries.map((e: { notebook: { title: string } }) => e.notebook.title)).toEqual(["Private Book", "Shared Book"]);
      expect((await clients.anonymous.get(`/api/notes/${ids["Secret plans"]}`)).status).toBe(200);
      expect((await clients.owner.post(`/api/bazaar/${entries[0].id}/remove`)).status).toBe(403);
      const removed = await clients.stranger.post(`/api/bazaar/${entries[0].id}/remove`); // admin
      expect(removed.status).toBe(200);
      expect(removed.body.map((e: { notebook: { title: string } }) => e.notebook.title)).toEqual(["Shared Book"]);
      expect((await clients.anonymous.get(`/api/notes/${ids["Secret plans"]}`)).status).toBe(401);
    });

    test("a circle member shares the circle's notebook", async () => {
      const notebookId = (await clients.member.get(`/api/notes/${ids["Circle Book"]}`)).body.notebook.id;
      expect((await clients.member.post(`/api/notebooks/${notebookId}/share`)).status).toBe(200);
      expect((await clients.anonymous.get(`/api/notes/${ids["Circle Note"]}`)).status).toBe(200);
    });
  });

  describe("subscriptions", () => {
    test("the notebooks page lists the subscription; it is edited and validated", async () => {
      const list = (await clients.subscriber.get("/api/notebooks")).body;
      expect(list.notebooks).toEqual([]);
      expect(list.subscriptions).toHaveLength(1);
      const subscription = list.subscriptions[0];
      expect(subscription).toMatchObject({ title: "Shared Book", dailyTargetOfNewNotes: 2, notebookId: sharedNotebookId });
      // The contract's Subscription names its notebook.
      expect(subscription.notebook).toMatchObject({ id: sharedNotebookId, title: "Shared Book", headNoteId: ids["Shared Book"] });
      expect(subscription.headNote.id).toBe(ids["Shared Book"]);
      for (const bad of [0, -1, 1.5, "x", 1001]) {
        const refused = await clients.subscriber.post(`/api/subscriptions/${subscription.id}`, { dailyTargetOfNewNotes: bad });
        expect(refused.status).toBe(400);
        expect(refused.body.errors.dailyTargetOfNewNotes).toBeString();
      }
      const edited = await clients.subscriber.post(`/api/subscriptions/${subscription.id}`, { dailyTargetOfNewNotes: 3 });
      expect(edited.status).toBe(200);
      expect(edited.body.dailyTargetOfNewNotes).toBe(3);
      expect((await clients.stranger.post(`/api/subscriptions/${subscription.id}`, { dailyTargetOfNewNotes: 3 })).status).toBe(403);
      expect((await clients.stranger.post(`/api/subscriptions/${subscription.id}/delete`)).status).toBe(403);
      expect((await clients.anonymous.post(`/api/subscriptions/${subscription.id}/delete`)).status).toBe(401);
    });

    test("subscribing twice, to one's own notebook, to a private notebook or signed out is refused", async () => {
      const twice = await clients.subscriber.post(`/api/subscriptions/notebooks/${sharedNotebookId}/subscribe`, {
        dailyTargetOfNewNotes: 5,
      });
      expect(twice.status).toBe(400);
      expect(twice.body.message).toContain("already");
      // A rule about the request, not a permission: 400 with the message.
      const own = await clients.owner.post(`/api/subscriptions/notebooks/${sharedNotebookId}/subscribe`, { dailyTargetOfNewNotes: 5 });
      expect(own.status).toBe(400);
      expect(own.body.message).toBe("You cannot add your own notebook to your learning: its notes are offered already");
      const privateNotebookId = (await clients.owner.get(`/api/notes/${ids["Private Book"]}`)).body.notebook.id;
      const refused = await clients.stranger.post(`/api/subscriptions/notebooks/${privateNotebookId}/subscribe`, {});
      expect(refused.status).toBe(403);
      expect(refused.text).not.toContain("Private Book");
      expect(
        (await clients.anonymous.post(`/api/subscriptions/notebooks/${sharedNotebookId}/subscribe`, { dailyTargetOfNewNotes: "bad" }))
          .status,
      ).toBe(401);
      const zero = await clients.stranger.post(`/api/subscriptions/notebooks/${sharedNotebookId}/subscribe`, { dailyTargetOfNewNotes: 0 });
      expect(zero.status).toBe(400);
      expect(zero.body.errors.dailyTargetOfNewNotes).toBeString();
      const byDefault = await clients.stranger.post(`/api/subscriptions/notebooks/${sharedNotebookId}/subscribe`, {});
      expect(byDefault.body.dailyTargetOfNewNotes).toBe(5);
    });

    test("a subscriber assimilates within the daily target, recalls, cannot edit, and unsubscribing drops the notes from tomorrow's lists", async () => {
      const subscriber = clients.subscriber;
      // The notebook's notes first, its head note (no details) last.
      expect(await assimilatingTitles(subscriber)).toEqual(["Apple", "Banana"]);
      expect((await subscriber.get("/api/assimilation/count?timezone=UTC")).body).toMatchObject({
        dueCount: 2,
        totalUnassimilatedCount: 4,
      });
      const [tracker] = await assimilate(subscriber, ids.Apple!);
      expect(await assimilatingTitles(subscriber)).toEqual(["Banana"]);
      await assimilate(subscriber, ids.Banana!);
      expect(await assimilatingTitles(subscriber)).toEqual([]); // the target is reached for today
      expect((await subscriber.get("/api/assimilation/count?timezone=UTC")).body.dueCount).toBe(0);
      expect((await subscriber.patch(`/api/text_content/${ids.Apple}/details`, { details: "mine now" })).status).toBe(403);
      await travelTo(subscriber, 2);
      expect(await assimilatingTitles(subscriber)).toEqual(["Cherry", "Shared Book"]);
      expect(await recallingTitles(subscriber)).toContain("Apple");
      expect((await subscriber.get(`/api/memory-trackers/${tracker!.id}/spelling-question`)).status).not.toBe(403);
      const subscriptionId = (await subscriber.get("/api/notebooks")).body.subscriptions[0].id;
      const deleted = await subscriber.post(`/api/subscriptions/${subscriptionId}/delete`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual([subscriptionId]);
      await travelTo(subscriber, 3);
      expect(await assimilatingTitles(subscriber)).toEqual([]);
      expect(await recallingTitles(subscriber, 30)).toEqual([]);
      // the trackers stay in history, but are not recalled any more
      expect((await subscriber.get("/api/memory-trackers/recent")).body.length).toBeGreaterThan(0);
      expect((await subscriber.patch(`/api/memory-trackers/${tracker!.id}/mark-as-repeated?successful=true`)).status).toBe(403);
    });

    test("subscription notes come first, each within its target, then own notes (docs/decisions.md, decision 8)", async () => {
      const learner = clients.stranger;
      await learner.post("/api/testability/update_current_user", { daily_assimilation_count: 2 });
      await learner.post(`/api/subscriptions/notebooks/${sharedNotebookId}/subscribe`, { dailyTargetOfNewNotes: 1 });
      await inject([{ Title: "My own" }], "admin");
      expect(await assimilatingTitles(learner)).toEqual(["Apple", "My own"]);
      expect((await learner.get("/api/assimilation/count?timezone=UTC")).body.dueCount).toBe(2);
    });

    test("search with allMyNotebooksAndSubscriptions finds subscribed notes; allMyCircles finds circle notes", async () => {
      const own = await inject([{ Title: "Fruit basket" }], "non_admin");
      const search = (client: HttpClient, body: object) =>
        client.post(`/api/notes/${own["Fruit basket"]}/search`, { searchKey: "Banana", ...body });
      expect((await search(clients.subscriber, {})).body).toEqual([]);
      const found = (await search(clients.subscriber, { allMyNotebooksAndSubscriptions: true })).body;
      expect(found.map((r: { noteTopology: { titleOrPredicate: string } }) => r.noteTopology.titleOrPredicate)).toEqual(["Banana"]);
      const memberOwn = await inject([{ Title: "Notes of mine" }], "another_old_learner");
      const inCircle = await clients.member.post(`/api/notes/${memberOwn["Notes of mine"]}/search`, {
        searchKey: "Circle Note",
        allMyCircles: true,
      });
      expect(inCircle.body.map((r: { noteTopology: { titleOrPredicate: string } }) => r.noteTopology.titleOrPredicate)).toContain(
        "Circle Note",
      );
      const global = await clients.stranger.post("/api/notes/search", { searchKey: "Secret" });
      expect(global.body).toEqual([]);
    });
  });

  describe("circles", () => {
    test("creating a circle (blank refused), listing, showing to members only, joining by code (wrong code refused, twice harmless)", async () => {
      const blank = await clients.owner.post("/api/circles", { name: "  " });
      expect(blank.status).toBe(400);
      expect(blank.body.errors.name).toBeString();
      const created = await clients.owner.post("/api/circles", { name: "Chess club" });
      expect(created.status).toBe(200);
      expect(created.body.name).toBe("Chess club");
      expect((await clients.owner.get("/api/circles")).body).toEqual([created.body]);
      const circle = (await clients.owner.get(`/api/circles/${created.body.id}`)).body;
      expect(circle.invitationCode).toMatch(/^[a-z2-9]{20}$/);
      expect(circle.members).toEqual([{ name: "Old Learner" }]);
      expect(circle.notebooks).toEqual({ notebooks: [], subscriptions: [] });
      const refused = await clients.stranger.get(`/api/circles/${created.body.id}`);
      expect(refused.status).toBe(403);
      expect(refused.text).not.toContain(circle.invitationCode);
      expect((await clients.anonymous.get(`/api/circles/${created.body.id}`)).status).toBe(401);
      const wrong = await clients.stranger.post("/api/circles/join", { invitationCode: "notacode12345" });
      expect(wrong.status).toBe(400);
      expect(wrong.body.errors.invitationCode).toBeString();
      expect((await clients.stranger.post("/api/circles/join", { invitationCode: circle.invitationCode })).body).toEqual(created.body);
      expect((await clients.stranger.post("/api/circles/join", { invitationCode: circle.invitationCode })).status).toBe(200);
      expect((await clients.owner.get(`/api/circles/${created.body.id}`)).body.members).toEqual([
        { name: "Old Learner" },
        { name: "admin" },
      ]);
      expect((await clients.anonymous.post("/api/circles/join", { invitationCode: 12 })).status).toBe(401);
    });

    test("a member adds a notebook in the circle, every member edits it, and circle notes are not offered for assimilation", async () => {
      const circleId = (await clients.member.get("/api/circles")).body[0].id;
      const created = await clients.member.post(`/api/circles/${circleId}/notebooks`, { newTitle: "Openings" });
      expect(created.status).toBe(200);
      const trainer = await server.client().loginAs("a_trainer");
      expect((await trainer.patch(`/api/text_content/${created.body.noteId}/details`, { details: "e4 e5" })).status).toBe(200);
      expect((await clients.stranger.post(`/api/circles/${circleId}/notebooks`, { newTitle: "Intruder" })).status).toBe(403);
      expect(
        (await clients.member.get(`/api/circles/${circleId}`)).body.notebooks.notebooks.map((n: { title: string }) => n.title),
      ).toEqual(["Openings", "Circle Book"]);
      expect(await assimilatingTitles(trainer)).toEqual([]);
      expect(await assimilatingTitles(clients.member)).toEqual([]);
      expect((await clients.member.get("/api/notebooks")).body.notebooks).toEqual([]);
      // ...until a member adds one to their learning
      const openingsNotebook = (await trainer.get(`/api/notes/${created.body.noteId}`)).body.notebook.id;
      expect((await trainer.post(`/api/subscriptions/notebooks/${openingsNotebook}/subscribe`, { dailyTargetOfNewNotes: 3 })).status).toBe(
        200,
      );
      expect(await assimilatingTitles(trainer)).toEqual(["Openings"]);
    });

    test("the creator moves an own notebook into a circle they belong to, and only they can", async () => {
      const circleId = (await clients.member.get("/api/circles")).body[0].id;
      const own = await inject([{ Title: "Endgames" }, { Title: "Rook endings", "Parent Title": "Endgames" }], "another_old_learner");
      const notebookId = (await clients.member.get(`/api/notes/${own.Endgames}`)).body.notebook.id;
      const trainer = await server.client().loginAs("a_trainer");
      expect((await trainer.patch(`/api/notebooks/${notebookId}/move-to-circle/${circleId}`)).status).toBe(403);
      const elsewhere = (await clients.owner.post("/api/circles", { name: "Not theirs" })).body.id;
      expect((await clients.member.patch(`/api/notebooks/${notebookId}/move-to-circle/${elsewhere}`)).status).toBe(403);
      const moved = await clients.member.patch(`/api/notebooks/${notebookId}/move-to-circle/${circleId}`);
      expect(moved.status).toBe(200);
      expect(moved.body.circle).toEqual({ id: circleId, name: "Team" });
      expect((await trainer.patch(`/api/text_content/${own["Rook endings"]}/title`, { newTitle: "Rook endgames" })).status).toBe(200);
      expect(await assimilatingTitles(clients.member)).toEqual([]);
    });
  });

  test("every /api route not open to visitors answers a signed-out request with a malformed body or query 401", async () => {
    const routes = appRoutes(server.ctx).filter((r) => r.path.startsWith("/api/") && !r.path.startsWith("/api/testability/"));
    expect(routes.length).toBeGreaterThan(60);
    const open: string[] = [];
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)\??/g, "1").replace(/\*$/, "x");
      if (declaredAccess(route) === "public") {
        open.push(`${route.method} ${route.path}`);
        continue;
      }
      const hasBody = !["GET", "HEAD", "DELETE"].includes(route.method);
      const result = await clients.anonymous.request(
        route.method,
        `${path}?timezone=Not/AZone&dueindays=x`,
        hasBody ? { json: [1, { bad: true }] } : {},
      );
      expect(`${route.method} ${route.path} ${result.status}`).toBe(`${route.method} ${route.path} 401`);
    }
    // What a visitor may call: reading bazaar notebooks, the bazaar itself, and who is signed in.
    expect(open.sort()).toEqual([...PUBLIC_API_ROUTES].sort());
  });

  test("a signed-out request is 401 before its body is validated", async () => {
    const anonymous = clients.anonymous;
    expect((await anonymous.post("/api/user/generate-token", {})).status).toBe(401);
    expect((await anonymous.post("/api/circles", { name: 12 })).status).toBe(401);
    expect((await anonymous.patch(`/api/text_content/${ids.Apple}/title`, { newTitle: 12 })).status).toBe(401);
    expect((await anonymous.post("/api/notebooks/create", { nope: true })).status).toBe(401);
    expect((await anonymous.get("/api/recalls/recalling?timezone=Not/AZone")).status).toBe(401);
    expect((await anonymous.post("/api/assimilation", { noteId: "x" })).status).toBe(401);
    expect((await anonymous.get(`/api/notes/${ids.Apple}/graph?tokenLimit=5000`)).status).toBe(200);
  });
});
