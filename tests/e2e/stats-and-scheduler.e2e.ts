import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import {
  dayHour,
  engramTest,
  injectNotes,
  resetTestData,
  showcase,
  signInThroughIdentifyPage,
  testability,
  waitForHydration,
} from "./support";

/** The statistics page and the scheduler setting, as a learner uses them. */
const test = engramTest("test");
test.use({ timezoneId: "UTC" });

async function api(page: Page, method: "post" | "patch", url: string, data?: unknown) {
  const response = await page.request[method](url, { data: data ?? {} });
  expect(response.ok(), await response.text()).toBe(true);
  return response.json();
}

test.describe("statistics and the scheduler", () => {
  test.beforeEach(async ({ engram, page }) => {
    await resetTestData(engram.url);
    await signInThroughIdentifyPage(page, engram.url, "old_learner");
  });

  test("an empty history says what will appear; after some recalls the figures are in the page's first HTML", async ({ page, engram }) => {
    await page.goto(`${engram.url}/`);
    await page.getByRole("button", { name: "Account" }).click();
    await page.getByRole("menuitem", { name: "Statistics" }).click();
    await expect(page.getByRole("heading", { name: "Statistics", level: 1 })).toBeVisible();
    await expect(page.getByText("Nothing to show yet. Once you assimilate notes")).toBeVisible();
    await expect(page.getByText("No failed recalls yet.")).toBeVisible();

    await testability(page, engram.url, "time_travel", { travel_to: JSON.stringify(dayHour(0, 8)) });
    const ids = await injectNotes(page, engram.url, [{ Title: "Mercury" }, { Title: "Venus" }]);
    const trackers = [
      ...(await api(page, "post", `${engram.url}/api/assimilation`, { noteId: ids.Mercury })),
      ...(await api(page, "post", `${engram.url}/api/assimilation`, { noteId: ids.Venus })),
    ];
    await api(page, "patch", `${engram.url}/api/memory-trackers/${trackers[0].id}/mark-as-repeated?successful=true`);
    await api(page, "patch", `${engram.url}/api/memory-trackers/${trackers[1].id}/mark-as-repeated?successful=false`);

    // The figures are in the server's HTML, before any script runs.
    const html = await (await page.request.get(`${engram.url}/d/stats`)).text();
    expect(html).toContain("Notes assimilated");
    expect(html).toContain("Recalls per day over the past year");
    expect(html).toContain("1976-06-01: 2 recalls");

    await page.goto(`${engram.url}/d/stats`);
    const totals = page.getByRole("region", { name: "Totals" });
    await expect(totals.getByText("Notes assimilated")).toBeVisible();
    await expect(totals.locator(".stats-figure", { hasText: "Notes assimilated" }).locator("dd")).toHaveText("2");
    await expect(page.getByText("2 recalls in the past year; streak: 1 day in a row.")).toBeVisible();
    await expect(page.getByText("Remembered 50 % of 2 recalls in the past year, per week:")).toBeVisible();
    // With charts drawn (the sweep's data leaves them empty): no serious accessibility problem, also at phone width.
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
      expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }
    await page.getByRole("link", { name: "Venus" }).click();
    await expect(page).toHaveURL(new RegExp(`/n${ids.Venus}$`));
  });

  test("statistics of a single day read well on a phone and a desktop", async ({ page, engram }) => {
    await testability(page, engram.url, "time_travel", { travel_to: JSON.stringify(dayHour(0, 8)) });
    const ids = await injectNotes(page, engram.url, [
      { Title: "Biology" },
      { Title: "Ribosome", "Parent Title": "Biology" },
      { Title: "RNA", "Parent Title": "Biology" },
    ]);
    await testability(page, engram.url, "link_notes", { type: "using", source_id: String(ids.Ribosome), target_id: String(ids.RNA) });
    const ribosome = await (await page.request.get(`${engram.url}/api/notes/${ids.Ribosome}`)).json();
    const link = ribosome.children.find((child: { noteTopology: { linkType?: string } }) => child.noteTopology.linkType).id;
    for (const [noteId, successful] of [
      [ids.Ribosome, true],
      [ids.RNA, true],
      [link, false],
    ] as const) {
      const [tracker] = await api(page, "post", `${engram.url}/api/assimilation`, { noteId });
      await api(page, "patch", `${engram.url}/api/memory-trackers/${tracker.id}/mark-as-repeated?successful=${successful}`);
    }

    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${engram.url}/d/stats`);
      // A link note is named as the sentence it is.
      await expect(page.getByRole("region", { name: "Retention" }).getByRole("link", { name: "Ribosome — using — RNA" })).toBeVisible();
      const charts = await page.locator("figure.stats-chart:not(.stats-heatmap)").evaluateAll((figures) =>
        figures.map((figure) => {
          const box = (element: Element) => element.getBoundingClientRect();
          const visible = (element: Element) => getComputedStyle(element).display !== "none";
          // Where the text itself is drawn (a label may be narrower than its text, which overflows it).
          const textBox = (element: Element) => {
            const range = document.createRange();
            range.selectNodeContents(element);
            return range.getBoundingClientRect();
          };
          return {
            name: figure.getAttribute("aria-label"),
            figure: box(figure).toJSON() as DOMRect,
            bars: [...figure.querySelectorAll(".bar")].map((bar) => box(bar).toJSON() as DOMRect).filter((bar) => bar.height > 0),
            labels: [...figure.querySelectorAll(".bar-label")].filter(visible).map((label) => ({
              text: label.textContent,
              box: textBox(label).toJSON() as DOMRect,
            })),
          };
        }),
      );
      expect(charts.map((chart) => chart.name)).toEqual([
        "Reviews due per day for the next 30 days",
        "Share of successful recalls per week",
      ]);
      for (const chart of charts) {
        for (const bar of chart.bars) {
          expect(bar.height, `${chart.name}: a bar's height at ${width} px`).toBeLessThanOrEqual(200);
          expect(bar.width, `${chart.name}: a bar's width at ${width} px`).toBeLessThanOrEqual(64);
          expect(bar.width, `${chart.name}: a bar's width at ${width} px`).toBeGreaterThanOrEqual(6);
        }
        for (const label of chart.labels) {
          expect(label.box.height, `${chart.name}: label ${label.text} at ${width} px`).toBeGreaterThanOrEqual(11);
          expect(label.box.height, `${chart.name}: label ${label.text} at ${width} px`).toBeLessThanOrEqual(24);
          expect(label.box.left, `${chart.name}: label ${label.text} starts in its chart`).toBeGreaterThanOrEqual(chart.figure.left);
        }
      }
      expect(charts[0]!.labels[0]!.text).toBe("Today");
      await showcase(page, `stats-one-day-${width}`, { fullPage: true });
    }
  });

  test("switching to FSRS in Settings keeps the due count and shows the FSRS charts; switching back works too", async ({
    page,
    engram,
  }) => {
    await testability(page, engram.url, "time_travel", { travel_to: JSON.stringify(dayHour(0, 8)) });
    const ids = await injectNotes(page, engram.url, [{ Title: "Mercury" }]);
    const [tracker] = await api(page, "post", `${engram.url}/api/assimilation`, { noteId: ids.Mercury });
    await api(page, "patch", `${engram.url}/api/memory-trackers/${tracker.id}/mark-as-repeated?successful=true`);
    const before = await (await page.request.get(`${engram.url}/api/memory-trackers/${tracker.id}`)).json();

    await page.goto(`${engram.url}/`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Account" }).click();
    await page.getByRole("menuitem", { name: "Settings for Old Learner" }).click();
    const dialog = page.getByRole("dialog", { name: "Settings for Old Learner" });
    await dialog.getByLabel("Scheduler").selectOption({ label: "FSRS" });
    await dialog.getByLabel("Desired retention").fill("0.99");
    await dialog.getByRole("button", { name: "Submit" }).click();
    await expect(dialog.getByText("must be a number from 0.7 to 0.97")).toBeVisible();
    await dialog.getByLabel("Desired retention").fill("0.85");
    await dialog.getByRole("button", { name: "Submit" }).click();
    await expect(dialog).toBeHidden();

    const after = await (await page.request.get(`${engram.url}/api/memory-trackers/${tracker.id}`)).json();
    expect(after.nextRecallAt).toBe(before.nextRecallAt);
    expect(after.stability).toBeGreaterThan(0);
    await page.goto(`${engram.url}/d/stats`);
    await expect(page.getByRole("heading", { name: "Memory (FSRS)" })).toBeVisible();
    await expect(page.getByRole("img", { name: "Memory trackers by stability" })).toBeVisible();

    await page.getByRole("button", { name: "Account" }).click();
    await page.getByRole("menuitem", { name: "Settings for Old Learner" }).click();
    await expect(dialog.getByLabel("Desired retention")).toHaveValue("0.85");
    await dialog.getByRole("button", { name: "Optimize my parameters" }).click();
    await expect(dialog.getByRole("status")).toHaveText("needs at least 400 logged reviews; you have 1 so far");
    // The dialog with the FSRS fields: no serious accessibility problem, nothing wider than a phone.
    await page.setViewportSize({ width: 390, height: 800 });
    const { violations } = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(["wcag2a", "wcag2aa"]).analyze();
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await dialog.getByLabel("Scheduler").selectOption({ label: "Forgetting curve (classic)" });
    await expect(dialog.getByLabel("Desired retention")).toHaveCount(0);
    await dialog.getByRole("button", { name: "Submit" }).click();
    await expect(dialog).toBeHidden();
    const back = await (await page.request.get(`${engram.url}/api/memory-trackers/${tracker.id}`)).json();
    expect(back).toMatchObject({ nextRecallAt: before.nextRecallAt, forgettingCurveIndex: before.forgettingCurveIndex });
    expect(back.stability).toBeUndefined();
  });
});
