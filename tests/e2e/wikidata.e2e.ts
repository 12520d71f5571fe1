import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, type Page } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage } from "./support";

const test = engramTest("test");
const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** What the fake Wikidata knows for this file (FakeWikidataEntity shapes, see tests/fakes/wikidata.ts). */
const ENTITIES = [
  { id: "Q2", label: "TDD", description: "software development process", enwikiTitle: "Test-driven development" },
  {
    id: "Q334",
    label: "Singapore",
    description: "sovereign city-state in Southeast Asia",
    claims: {
      P625: {
        type: "globecoordinate",
        value: { latitude: 1.3, longitude: 103.8, altitude: null, precision: 0.0001, globe: "http://www.wikidata.org/entity/Q2" },
      },
    },
  },
  { id: "Q11399", label: "Dog", description: "domestic animal", aliases: ["canine"] },
  { id: "Q38280", label: "Dogma", description: "belief or set of beliefs" },
];

/**
 * The fake Wikidata server is a Bun server and Playwright runs in Node, so it runs in a Bun child
 * process that registers ENTITIES and prints its URL.
 */
let fake: { url: string; process: ChildProcess };

async function startFakeWikidataProcess(): Promise<typeof fake> {
  const script = `
    import { startFakeWikidata } from ${JSON.stringify(join(root, "tests/fakes/wikidata.ts"))};
    const fake = await startFakeWikidata();
    for (const entity of JSON.parse(process.env.FAKE_WIKIDATA_ENTITIES)) fake.addEntity(entity);
    console.log(fake.url);`;
  const child = spawn(join(root, "node_modules/.bin/bun"), ["-e", script], {
    env: { ...process.env, FAKE_WIKIDATA_ENTITIES: JSON.stringify(ENTITIES) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (match) resolve(match[0]);
    });
    child.stderr!.on("data", (chunk) => (output += chunk));
    child.once("exit", () => reject(new Error(`fake Wikidata did not start:\n${output}`)));
  });
  return { url, process: child };
}

test.beforeAll(async () => {
  fake = await startFakeWikidataProcess();
});
test.afterAll(async () => {
  fake.process.kill("SIGTERM");
});

async function pointAt(page: Page, engramUrl: string, wikidataUrl: string) {
  const response = await page.request.post(`${engramUrl}/api/testability/replace_service_url`, { data: { wikidata: wikidataUrl } });
  expect(response.ok()).toBe(true);
}

async function noteOf(page: Page, url: string, noteId: number) {
  return (await (await page.request.get(`${url}/api/notes/${noteId}`)).json()).note;
}

test.beforeEach(async ({ engram, page }) => {
  await resetTestData(engram.url);
  await pointAt(page, engram.url, fake.url);
  await signInThroughIdentifyPage(page, engram.url, "old_learner");
});

test("a matching title is associated at once, and Go to Wikidata opens the Wikipedia article in a new tab", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [{ Title: "TDD" }]);
  await page.goto(`${engram.url}/n${ids.TDD}`);
  await page.getByRole("button", { name: "wikidata options" }).click();
  await expect(page.getByRole("menuitem", { name: "Go to Wikidata" })).toHaveCount(0);
  await page.getByRole("menuitem", { name: "associate wikidata" }).click();

  const dialog = page.getByRole("dialog", { name: "Associate Wikidata" });
  await dialog.getByLabel("Wikidata Id").fill("Q2");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(async () => (await noteOf(page, engram.url, ids.TDD!)).wikidataId).toBe("Q2");

  await page.getByRole("button", { name: "wikidata options" }).click();
  await expect(page.getByRole("menuitem", { name: "associate wikidata" })).toHaveCount(0);
  const goTo = page.getByRole("menuitem", { name: "Go to Wikidata" });
  await expect(goTo).toHaveAttribute("href", "https://en.wikipedia.org/wiki/Test-driven_development");
  await expect(goTo).toHaveAttribute("target", "_blank");
  // No internet in tests: the article is answered locally, the point is where the new tab goes.
  await page.context().route("https://en.wikipedia.org/**", (route) => route.fulfill({ contentType: "text/html", body: "<h1>TDD</h1>" }));
  const [tab] = await Promise.all([page.waitForEvent("popup"), goTo.click()]);
  await expect.poll(() => tab.url()).toBe("https://en.wikipedia.org/wiki/Test-driven_development");
  await tab.close();
  await expect(page.getByRole("menuitem", { name: "Go to Wikidata" })).toHaveCount(0);
});

test("a different title needs confirming; the entity's location goes into the details", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [{ Title: "Lion City", Details: "The red dot" }]);
  await page.goto(`${engram.url}/n${ids["Lion City"]}`);
  await page.getByRole("button", { name: "wikidata options" }).click();
  await page.getByRole("menuitem", { name: "associate wikidata" }).click();
  const dialog = page.getByRole("dialog", { name: "Associate Wikidata" });
  await dialog.getByLabel("Wikidata Id").fill("Q334");
  await dialog.getByRole("button", { name: "Save" }).click();

  await expect(dialog.getByText("Confirm to associate Lion City with Singapore?")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog.getByLabel("Wikidata Id")).toHaveValue("Q334");
  expect((await noteOf(page, engram.url, ids["Lion City"]!)).wikidataId).toBeUndefined();

  await dialog.getByRole("button", { name: "Save" }).click();
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.locator(".note-details")).toContainText("Location: 1.3'N, 103.8'E");
  await expect(page.locator(".note-details")).toContainText("The red dot");
  expect(await noteOf(page, engram.url, ids["Lion City"]!)).toMatchObject({
    wikidataId: "Q334",
    details: "Location: 1.3'N, 103.8'E\nThe red dot",
  });

  // Without a Wikipedia article the link goes to the entity's Wikidata page.
  await page.getByRole("button", { name: "wikidata options" }).click();
  await expect(page.getByRole("menuitem", { name: "Go to Wikidata" })).toHaveAttribute("href", "https://www.wikidata.org/wiki/Q334");
  await page.getByRole("menuitem", { name: "Edit Wikidata ID" }).click();
  await expect(page.getByRole("dialog", { name: "Edit Wikidata ID" }).getByLabel("Wikidata Id")).toHaveValue("Q334");
});

test("errors show on the Wikidata Id field: a malformed id, a duplicate, the service down", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [
    { Title: "Animals" },
    { Title: "Dog", "Parent Title": "Animals", "Wikidata Id": "Q11399" },
    { Title: "Canine", "Parent Title": "Animals" },
  ]);
  await page.goto(`${engram.url}/n${ids.Canine}`);
  await page.getByRole("button", { name: "wikidata options" }).click();
  await page.getByRole("menuitem", { name: "associate wikidata" }).click();
  const dialog = page.getByRole("dialog", { name: "Associate Wikidata" });
  const field = dialog.getByLabel("Wikidata Id");

  await field.fill("Q12345R");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("The wikidata Id should be Q<numbers>")).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");

  await field.fill("Q11399");
  await dialog.getByRole("button", { name: "Save" }).click();
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog.getByText("Duplicate Wikidata ID Detected.")).toBeVisible();

  await pointAt(page, engram.url, "http://127.0.0.1:9");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("The wikidata service is not available")).toBeVisible();
  expect((await noteOf(page, engram.url, ids.Canine!)).wikidataId).toBeUndefined();
});

test("the new-note dialog suggests Wikidata entries for the title: same label sets it, else Replace or Append", async ({
  page,
  engram,
}) => {
  const ids = await injectNotes(page, engram.url, [{ Title: "Animals" }]);
  await page.goto(`${engram.url}/n${ids.Animals}`);
  await page.getByRole("button", { name: "Add Child Note" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Child Note" });
  const title = dialog.getByLabel("Title");
  const wikidataId = dialog.getByLabel("Wikidata Id");
  const results = dialog.getByRole("listbox", { name: "Wikidata search results" });

  await title.fill("dog");
  await expect(results.getByRole("option")).toHaveText(["Dog domestic animal", "Dogma belief or set of beliefs"]);
  await results.getByRole("option", { name: /^Dog domestic animal/ }).click();
  await expect(title).toHaveValue("Dog");
  await expect(wikidataId).toHaveValue("Q11399");
  await expect(results).toHaveCount(0);
  await expect(dialog.getByText("Suggested Title:")).toHaveCount(0);

  // a label that differs from the title is offered, not taken
  await title.fill("canine");
  await results.getByRole("option", { name: /^Dog/ }).click();
  await expect(title).toHaveValue("canine");
  await expect(dialog.getByRole("group", { name: "Wikidata suggestion" })).toContainText("Suggested Title: Dog");
  await dialog.getByRole("button", { name: "Append" }).click();
  await expect(title).toHaveValue("canine / Dog");
  await expect(dialog.getByRole("group", { name: "Wikidata suggestion" })).toHaveCount(0);

  // the keyboard chooses too; Replace takes the label
  await title.fill("dogm");
  await expect(results.getByRole("option")).toHaveCount(1);
  await title.press("ArrowDown");
  await title.press("Enter");
  await expect(wikidataId).toHaveValue("Q38280");
  await dialog.getByRole("button", { name: "Replace" }).click();
  await expect(title).toHaveValue("Dogma");

  // the list hides shortly after the title loses focus
  await title.fill("do");
  await expect(results).toBeVisible();
  await title.press("Tab");
  await expect(wikidataId).toBeFocused();
  await expect(results).toHaveCount(0);

  await title.fill("Dogma");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(page).not.toHaveURL(new RegExp(`/n${ids.Animals}$`));
  await expect(page).toHaveURL(/\/n\d+$/);
  const createdId = Number(page.url().match(/\/n(\d+)$/)![1]);
  expect(await noteOf(page, engram.url, createdId)).toMatchObject({ wikidataId: "Q38280", noteTopology: { titleOrPredicate: "Dogma" } });
});
