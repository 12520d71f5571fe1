import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { ChildNoteJson } from "../../src/services/notes/presenters";
import { formatWikidataTime } from "../../src/services/wikidata/claims";
import { type FakeWikidata, startFakeWikidata, wikidataValue } from "../fakes/index.ts";
import { type HttpClient, startTestServer, type TestServer } from "../support/server";

const UNAVAILABLE = "The wikidata service is not available";
const DUPLICATE = "Duplicate Wikidata ID Detected.";
const BAD_ID = "The wikidata Id should be Q<numbers>";

type Row = { Title: string; Details?: string; "Parent Title"?: string; "Wikidata Id"?: string };

describe("wikidata", () => {
  let server: TestServer;
  let wikidata: FakeWikidata;
  let learner: HttpClient;

  async function inject(rows: Row[], as = "old_learner"): Promise<Record<string, number>> {
    const result = await learner.post("/api/testability/inject_notes", { externalIdentifier: as, circleName: null, noteTestData: rows });
    expect(result.status).toBe(200);
    return result.body;
  }
  const realm = async (noteId: number) => (await learner.get(`/api/notes/${noteId}`)).body;
  const children = async (noteId: number) =>
    (await realm(noteId)).children.map((c: ChildNoteJson) =>
      c.noteTopology.linkType
        ? `${c.noteTopology.linkType} ${c.noteTopology.objectNoteTopology?.titleOrPredicate}`
        : `${c.noteTopology.titleOrPredicate}${c.wikidataId ? ` (${c.wikidataId})` : ""}`,
    );

  function addPeopleAndPlaces() {
    wikidata.addEntity({ id: "Q22502", label: "Taiwan", enwikiTitle: "Taiwan", claims: { P625: wikidataValue.coordinate(23.5, 121) } });
    wikidata.addEntity({ id: "Q736936", label: "Lu" });
    wikidata.addEntity({
      id: "Q706446",
      label: "Wang Chien-ming",
      claims: { P31: "Q5", P27: "Q22502", P569: wikidataValue.time("+1980-03-31T00:00:00Z") },
    });
    wikidata.addEntity({
      id: "Q4604",
      label: "Confucius",
      claims: { P31: "Q5", P27: "Q736936", P569: wikidataValue.time("-0552-10-09T00:00:00Z") },
    });
    wikidata.addEntity({ id: "Q334", label: "Singapore", claims: { P625: wikidataValue.coordinate(1.3, 103.8) } });
    wikidata.addEntity({ id: "Q45575", label: "Dennis Ritchie" });
    wikidata.addEntity({ id: "Q92608", label: "Brian Kernighan" });
    wikidata.addEntity({ id: "Q1137974", label: "The C Programming Language", claims: { P50: ["Q45575", "Q92608"] } });
  }

  beforeAll(async () => {
    server = await startTestServer();
    wikidata = await startFakeWikidata();
  });
  afterAll(async () => {
    await server.stop();
    await wikidata.stop();
  });
  beforeEach(async () => {
    await server.client().post("/api/testability/clean_db_and_reset_testability_settings");
    wikidata.reset();
    const replaced = await server.client().post("/api/testability/replace_service_url", { wikidata: wikidata.url });
    expect(replaced.body.wikidata).toBe(wikidata.url);
    learner = await server.client().loginAs("old_learner");
  });

  describe("search and entity data", () => {
    test("search answers id, label and description for each result, asking Wikidata in English", async () => {
      wikidata.addEntity({ id: "Q11399", label: "Dog", description: "domestic animal" });
      wikidata.addEntity({ id: "Q38280", label: "Dogma" });
      const result = await learner.get("/api/wikidata/search/dog");
      expect(result.status).toBe(200);
      expect(result.body).toEqual([
        { id: "Q11399", label: "Dog", description: "domestic animal" },
        { id: "Q38280", label: "Dogma", description: "" },
      ]);
      const request = wikidata.requests.at(-1)!;
      expect(request.path).toBe("/w/api.php");
      expect(request.query).toMatchObject({
        action: "wbsearchentities",
        search: "dog",
        language: "en",
        type: "item",
        limit: "10",
        format: "json",
      });
      expect(request.headers["user-agent"]).toContain("Engram");
    });

    test("search text with spaces and other characters reaches Wikidata as typed", async () => {
      wikidata.addEntity({ id: "Q60", label: "New York City" });
      const result = await learner.get(`/api/wikidata/search/${encodeURIComponent("new york & co?")}`);
      expect(result.status).toBe(200);
      expect(wikidata.requests.at(-1)!.query.search).toBe("new york & co?");
      expect((await learner.get(`/api/wikidata/search/${encodeURIComponent("New York")}`)).body.map((r: { id: string }) => r.id)).toEqual([
        "Q60",
      ]);
    });

    test("entity data answers the English title and the Wikipedia link, empty when there is none", async () => {
      wikidata.addEntity({ id: "Q2", label: "TDD", enwikiTitle: "Test-driven development" });
      wikidata.addEntity({ id: "Q1", label: "TDD" });
      expect((await learner.get("/api/wikidata/entity-data/Q2")).body).toEqual({
        WikidataTitleInEnglish: "TDD",
        WikipediaEnglishUrl: "https://en.wikipedia.org/wiki/Test-driven_development",
      });
      expect((await learner.get("/api/wikidata/entity-data/Q1")).body).toEqual({ WikidataTitleInEnglish: "TDD", WikipediaEnglishUrl: "" });
    });

    test("entity data refuses an id not like Q123 and answers 404 for an unknown entity", async () => {
      const bad = await learner.get("/api/wikidata/entity-data/42");
      expect(bad.status).toBe(400);
      expect(bad.body.errors.wikidataId).toBe(BAD_ID);
      const unknown = await learner.get("/api/wikidata/entity-data/Q999");
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe("Wikidata entity not found");
    });

    test("search and entity data need a signed-in user", async () => {
      const anonymous = server.client();
      expect((await anonymous.get("/api/wikidata/search/dog")).status).toBe(401);
      expect((await anonymous.get("/api/wikidata/entity-data/Q1")).status).toBe(401);
      expect(wikidata.requests).toHaveLength(0);
    });

    test("when Wikidata is down, fails or answers nonsense, the message says the service is not available", async () => {
      wikidata.down = true;
      for (const path of ["/api/wikidata/search/dog", "/api/wikidata/entity-data/Q1"]) {
        const result = await learner.get(path);
        expect(result.status).toBe(503);
        expect(result.body.message).toBe(UNAVAILABLE);
      }
      wikidata.down = false;
      wikidata.failNext(500);
      expect((await learner.get("/api/wikidata/search/dog")).body.message).toBe(UNAVAILABLE);
      wikidata.respondNextWithRaw("not json");
      expect((await learner.get("/api/wikidata/entity-data/Q1")).body.message).toBe(UNAVAILABLE);
      await learner.post("/api/testability/replace_service_url", { wikidata: "http://127.0.0.1:1" });
      expect((await learner.get("/api/wikidata/search/dog")).body.message).toBe(UNAVAILABLE);
    });
  });

  describe("associating a note", () => {
    test("saving an id answers the note realm and keeps the id", async () => {
      wikidata.addEntity({ id: "Q1", label: "TDD" });
      const ids = await inject([{ Title: "TDD", Details: "Red, green, refactor" }]);
      const result = await learner.post(`/api/notes/${ids.TDD}/updateWikidataId`, { wikidataId: "Q1" });
      expect(result.status).toBe(200);
      expect(result.body.id).toBe(ids.TDD);
      expect(result.body.note.wikidataId).toBe("Q1");
      expect(result.body.notebook.title).toBe("TDD");
      expect((await realm(ids.TDD!)).note).toMatchObject({ wikidataId: "Q1", details: "Red, green, refactor" });
    });

    test("an id not like Q123 is refused on the field wikidataId", async () => {
      const ids = await inject([{ Title: "TDD" }]);
      for (const wikidataId of ["42", "Q12345R", "q1", "P31"]) {
        const result = await learner.post(`/api/notes/${ids.TDD}/updateWikidataId`, { wikidataId });
        expect(result.status).toBe(400);
        expect(result.body.errors.wikidataId).toBe(BAD_ID);
      }
      expect((await learner.post(`/api/notes/${ids.TDD}/updateWikidataId`, {})).status).toBe(400);
      expect((await realm(ids.TDD!)).note.wikidataId).toBeUndefined();
    });

    test("the same id twice in a notebook is refused; other notebooks, deleted notes and the note itself do not count", async () => {
      wikidata.addEntity({ id: "Q123", label: "Canine" });
      const ids = await inject([
        { Title: "Animals" },
        { Title: "Dog", "Parent Title": "Animals", "Wikidata Id": "Q123" },
        { Title: "Canine", "Parent Title": "Animals" },
        { Title: "Other notebook" },
      ]);
      const duplicate = await learner.post(`/api/notes/${ids.Canine}/updateWikidataId`, { wikidataId: "Q123" });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body.errors.wikidataId).toBe(DUPLICATE);
      expect((await learner.post(`/api/notes/${ids.Dog}/updateWikidataId`, { wikidataId: "Q123" })).status).toBe(200);
      expect((await learner.post(`/api/notes/${ids["Other notebook"]}/updateWikidataId`, { wikidataId: "Q123" })).status).toBe(200);
      await learner.post(`/api/notes/${ids.Dog}/delete`);
      expect((await learner.post(`/api/notes/${ids.Canine}/updateWikidataId`, { wikidataId: "Q123" })).status).toBe(200);
    });

    test("an empty id removes the association", async () => {
      const ids = await inject([{ Title: "TDD", "Wikidata Id": "Q1" }]);
      const result = await learner.post(`/api/notes/${ids.TDD}/updateWikidataId`, { wikidataId: "" });
      expect(result.status).toBe(200);
      expect(result.body.note.wikidataId).toBeUndefined();
      expect(wikidata.requests).toHaveLength(0);
    });

    test("only notes the user may edit can be associated", async () => {
      const ids = await inject([{ Title: "Mine" }]);
      const other = await server.client().loginAs("another_old_learner");
      expect((await other.post(`/api/notes/${ids.Mine}/updateWikidataId`, { wikidataId: "Q1" })).status).toBe(403);
      expect((await server.client().post(`/api/notes/${ids.Mine}/updateWikidataId`, { wikidataId: "Q1" })).status).toBe(401);
      expect((await learner.post("/api/notes/424242/updateWikidataId", { wikidataId: "Q1" })).status).toBe(404);
      expect((await realm(ids.Mine!)).note.wikidataId).toBeUndefined();
    });

    test("a member who loses the notebook while Wikidata answers is refused, and nothing is saved", async () => {
      addPeopleAndPlaces();
      const admin = server.client();
      expect((await admin.post("/api/testability/inject_circle", { circleName: "Team", members: "old_learner, a_trainer" })).status).toBe(
        200,
      );
      expect((await admin.post("/api/testability/inject_circle", { circleName: "Elsewhere", members: "old_learner" })).status).toBe(200);
      const injected = await learner.post("/api/testability/inject_notes", {
        externalIdentifier: "old_learner",
        circleName: "Team",
        noteTestData: [{ Title: "Team book" }, { Title: "Singapore", Details: "The red dot", "Parent Title": "Team book" }],
      });
      const ids: Record<string, number> = injected.body;
      const member = await server.client().loginAs("a_trainer");
      const notebook = (await realm(ids.Singapore!)).notebook.id;
      const elsewhere = (await learner.get("/api/circles")).body.find((c: { name: string }) => c.name === "Elsewhere").id;

      // Wikidata holds its answer until the notebook has left the member's circle.
      wikidata.delay(2000);
      const associating = member.post(`/api/notes/${ids.Singapore}/updateWikidataId`, { wikidataId: "Q334" });
      while (wikidata.requests.length === 0) await Bun.sleep(10);
      expect((await learner.patch(`/api/notebooks/${notebook}/move-to-circle/${elsewhere}`)).status).toBe(200);

      expect((await associating).status).toBe(403);
      const note = (await realm(ids.Singapore!)).note;
      expect(note.wikidataId).toBeUndefined();
      expect(note.details).toBe("The red dot");
    });

    test("when Wikidata is down nothing is saved", async () => {
      const ids = await inject([{ Title: "TDD" }]);
      wikidata.down = true;
      const result = await learner.post(`/api/notes/${ids.TDD}/updateWikidataId`, { wikidataId: "Q1" });
      expect(result.status).toBe(503);
      expect(result.body.message).toBe(UNAVAILABLE);
      expect((await realm(ids.TDD!)).note.wikidataId).toBeUndefined();
    });

    test("a location prepends its coordinates to the details", async () => {
      addPeopleAndPlaces();
      const ids = await inject([{ Title: "places" }, { Title: "Singapore", Details: "The red dot", "Parent Title": "places" }]);
      const result = await learner.post(`/api/notes/${ids.Singapore}/updateWikidataId`, { wikidataId: "Q334" });
      expect(result.body.note.details).toBe("Location: 1.3'N, 103.8'E\nThe red dot");
      // saving the same id again adds nothing more
      await learner.post(`/api/notes/${ids.Singapore}/updateWikidataId`, { wikidataId: "Q334" });
      expect((await realm(ids.Singapore!)).note.details).toBe("Location: 1.3'N, 103.8'E\nThe red dot");
    });

    test("a person gets the country and birthday, and no sub-notes on association", async () => {
      addPeopleAndPlaces();
      const ids = await inject([
        { Title: "People" },
        { Title: "Wang Chien-ming", "Parent Title": "People" },
        { Title: "Confucius", "Parent Title": "People" },
      ]);
      expect(
        (await learner.post(`/api/notes/${ids["Wang Chien-ming"]}/updateWikidataId`, { wikidataId: "Q706446" })).body.note.details,
      ).toBe("Taiwan, 31 March 1980");
      expect((await learner.post(`/api/notes/${ids.Confucius}/updateWikidataId`, { wikidataId: "Q4604" })).body.note.details).toBe(
        "Lu, 09 October 0553 B.C.",
      );
      expect(await children(ids.Confucius!)).toEqual([]);
      expect(await children(ids.People!)).toEqual(["Wang Chien-ming (Q706446)", "Confucius (Q4604)"]);
    });

    test("an entity that is neither a person nor a place adds nothing", async () => {
      wikidata.addEntity({ id: "Q11399", label: "Dog", claims: { P31: "Q55983715" } });
      const ids = await inject([{ Title: "Dog", Details: "Woof" }]);
      expect((await learner.post(`/api/notes/${ids.Dog}/updateWikidataId`, { wikidataId: "Q11399" })).body.note.details).toBe("Woof");
    });
  });

  test("Wikidata times read as the reference shows them", () => {
    expect(formatWikidataTime("+1980-03-31T00:00:00Z")).toBe("31 March 1980");
    expect(formatWikidataTime("+1952-03-01T00:00:00Z")).toBe("01 March 1952");
    expect(formatWikidataTime("-0552-10-09T00:00:00Z")).toBe("09 October 0553 B.C.");
    expect(formatWikidataTime("+1980-03-00T00:00:00Z")).toBe("March 1980");
    expect(formatWikidataTime("+1980-00-00T00:00:00Z")).toBe("1980");
    expect(formatWikidataTime("-0552-00-00T00:00:00Z")).toBe("553 B.C.");
    expect(formatWikidataTime("+1980-01-01T00:00:00Z", 9)).toBe("1980");
    expect(formatWikidataTime("+1980-03-31T00:00:00Z", 10)).toBe("March 1980");
    expect(formatWikidataTime("yesterday")).toBe("Unknown date");
    expect(formatWikidataTime("+1980-13-01T00:00:00Z")).toBe("Unknown date");
  });

  // These need the creation code (src/services/notes/note-service.ts and src/services/notebooks.ts) to call
  // assertWikidataIdUnique and prepareWikidataEnrichment/applyWikidataEnrichment: see src/services/wikidata/index.ts.
  describe("creating notes with a Wikidata id [needs the creation code to call the Wikidata services]", () => {
    test("a duplicate id in the notebook is refused on create and create-after", async () => {
      const ids = await inject([{ Title: "Star" }, { Title: "Sun", "Parent Title": "Star", "Wikidata Id": "Q123" }]);
      for (const path of [`/api/notes/${ids.Star}/create`, `/api/notes/${ids.Sun}/create-after`]) {
        const result = await learner.post(path, { newTitle: "Solar", wikidataId: "Q123" });
        expect(result.status).toBe(400);
        expect(result.body.errors.wikidataId).toBe(DUPLICATE);
      }
      expect(await children(ids.Star!)).toEqual(["Sun (Q123)"]);
    });

    test("a person gets the details and a child note for the country", async () => {
      addPeopleAndPlaces();
      const ids = await inject([{ Title: "People" }]);
      const created = await learner.post(`/api/notes/${ids.People}/create`, { newTitle: "Confucius", wikidataId: "Q4604" });
      expect(created.status).toBe(200);
      const confucius = await realm(created.body.created.id);
      expect(confucius.note.details).toBe("Lu, 09 October 0553 B.C.");
      expect(await children(confucius.id)).toEqual(["Lu (Q736936)"]);
    });

    test("a country already in the notebook is linked as related to, not created again", async () => {
      addPeopleAndPlaces();
      const ids = await inject([{ Title: "People" }, { Title: "Taiwan", "Parent Title": "People", "Wikidata Id": "Q22502" }]);
      const created = await learner.post(`/api/notes/${ids.People}/create`, { newTitle: "Wang Chien-ming", wikidataId: "Q706446" });
      expect(created.status).toBe(200);
      expect(await children(created.body.created.id)).toEqual(["related to Taiwan"]);
      expect(await children(ids.People!)).toEqual(["Taiwan (Q22502)", "Wang Chien-ming (Q706446)"]);
    });

    test("a book gets a child note per author; a new sibling with a location gets its coordinates", async () => {
      addPeopleAndPlaces();
      const ids = await inject([{ Title: "Books" }, { Title: "Favourite", "Parent Title": "Books" }]);
      const book = await learner.post(`/api/notes/${ids.Books}/create`, { newTitle: "K&R", wikidataId: "Q1137974" });
      expect(await children(book.body.created.id)).toEqual(["Dennis Ritchie (Q45575)", "Brian Kernighan (Q92608)"]);
      const after = await learner.post(`/api/notes/${ids.Favourite}/create-after`, { newTitle: "Singapore", wikidataId: "Q334" });
      expect((await realm(after.body.created.id)).note.details).toBe("Location: 1.3'N, 103.8'E");
    });

    test("a new notebook's head note is enriched too", async () => {
      addPeopleAndPlaces();
      const created = await learner.post("/api/notebooks/create", { newTitle: "Singapore", wikidataId: "Q334" });
      expect(created.status).toBe(200);
      expect((await realm(created.body.noteId)).note).toMatchObject({ wikidataId: "Q334", details: "Location: 1.3'N, 103.8'E" });
    });

    test("when Wikidata is down no note is created", async () => {
      const ids = await inject([{ Title: "People" }]);
      wikidata.down = true;
      const created = await learner.post(`/api/notes/${ids.People}/create`, { newTitle: "Confucius", wikidataId: "Q4604" });
      expect(created.status).toBe(503);
      expect(created.body.message).toBe(UNAVAILABLE);
      expect(await children(ids.People!)).toEqual([]);
    });
  });
});
