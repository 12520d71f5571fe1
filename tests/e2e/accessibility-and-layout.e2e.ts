import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { ADMIN_TABS } from "../../islands/admin-dashboard/tabs";
import { engramTest, injectNotes, resetTestData, showcase, signInThroughIdentifyPage, testability, waitForHydration } from "./support";

/**
 * The accessibility and layout sweep: every page of the route table, signed in and signed out, at
 * phone and desktop widths, has no serious or critical axe violation and is no wider than the
 * screen; an open menu lies inside the screen; on a phone every control is at least 44×44 px
 * (WCAG 2.5.5). Some states that only appear after a click (an open dialog, menu or drawer, every
 * admin tab) too.
 */
const test = engramTest("test");

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const;

const SIGNED_OUT_PAGES = (ids: Record<string, number>) => [
  "/",
  "/users/sign-in",
  "/users/sign-up",
  "/users/identify",
  "/d/bazaar",
  `/n${ids.Moon}`,
  "/d/no-such-page",
];
const SIGNED_IN_PAGES = (ids: Record<string, number>) => [
  "/",
  "/d/notebooks",
  `/n${ids.Astronomy}`,
  `/n${ids.Moon}`,
  `/n${ids.link}`,
  "/d/assimilate",
  "/d/recall",
  "/d/recent",
  "/d/stats",
  "/d/generate-token",
  "/d/circles",
  `/d/circles/${ids.circle}`,
  "/d/circles/join/not-a-code",
  "/d/bazaar",
  "/d/message-center",
  "/d/admin-dashboard",
  "/d/assessmentAndCertificateHistory",
  `/d/assessment/notebook/${ids.notebook}`,
  "/d/no-such-page",
];

interface Finding {
  page: string;
  problem: string;
}

/** WCAG 2.5.5: a target at least this many CSS pixels wide and high. */
const MIN_TAP_TARGET_PX = 44;

/**
 * Controls smaller than MIN_TAP_TARGET_PX: buttons, menu items, tabs, fields and links styled as
 * buttons or tabs. Not counted, as WCAG 2.5.5 allows: links inside text, check boxes and radio
 * buttons the browser draws, and the test-only testability panel; nor what is not shown.
 */
async function smallTapTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const selector = [
      "button",
      "[role=button]",
      "[role=menuitem]",
      "[role=tab]",
      "a.button",
      "a.tab",
      "a.menu-item",
      "select",
      "textarea",
      "input:not([type=checkbox]):not([type=radio]):not([type=hidden])",
    ].join(", ");
    const found: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      if (element.closest(".testability-panel")) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || box.bottom <= 0) continue; // hidden, or a skip link waiting above the page
      if (getComputedStyle(element).visibility === "hidden") continue;
      if (box.width >= min - 0.5 && box.height >= min - 0.5) continue;
      const name = (element.getAttribute("aria-label") ?? element.textContent ?? "").trim().slice(0, 40);
      found.push(`"${name}" (${element.tagName.toLowerCase()}) is ${Math.round(box.width)}×${Math.round(box.height)} px`);
    }
    return found;
  }, MIN_TAP_TARGET_PX);
}

/** Open menus that reach past an edge of the screen. */
async function menusOffScreen(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("[role=menu]")].flatMap((menu) => {
      const box = menu.getBoundingClientRect();
      const inside = box.left >= 0 && box.top >= 0 && box.right <= window.innerWidth && box.bottom <= window.innerHeight;
      return inside
        ? []
        : [
            `menu "${menu.getAttribute("aria-label")}" is at ${Math.round(box.left)},${Math.round(box.top)}–${Math.round(box.right)},${Math.round(box.bottom)}`,
          ];
    }),
  );
}

/** Serious and critical axe violations, horizontal overflow, menus off screen and (on a phone) small controls. */
async function check(page: Page, label: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  for (const violation of results.violations) {
    if (violation.impact !== "serious" && violation.impact !== "critical") continue;
    const targets = violation.nodes
      .slice(0, 3)
      .map((node) => node.target.join(" "))
      .join(", ");
    findings.push({ page: label, problem: `${violation.id} (${violation.impact}): ${violation.help} — ${targets}` });
  }
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  if (scrollWidth > innerWidth) findings.push({ page: label, problem: `page is ${scrollWidth} px wide on a ${innerWidth} px screen` });
  for (const problem of await menusOffScreen(page)) findings.push({ page: label, problem });
  if (innerWidth <= VIEWPORTS[0].width) {
    for (const target of await smallTapTargets(page)) findings.push({ page: label, problem: `tap target too small: ${target}` });
  }
  return findings;
}

async function sweep(page: Page, url: string, paths: string[], viewport: (typeof VIEWPORTS)[number]) {
  const findings: Finding[] = [];
  await page.setViewportSize({ width: viewport.width, height: viewport.height });
  for (const path of paths) {
    await page.goto(`${url}${path}`);
    await waitForHydration(page);
    findings.push(...(await check(page, `${viewport.name} ${path}`)));
  }
  return findings;
}

async function injectLearningData(page: Page, url: string): Promise<Record<string, number>> {
  const ids = await injectNotes(page, url, [
    { Title: "Astronomy", Details: "The study of **everything** beyond the sky" },
    { Title: "Moon", "Parent Title": "Astronomy", Details: "| Property | Value |\n|---|---|\n| Moons | 1 |" },
    { Title: "Sun", "Parent Title": "Astronomy", Details: "A star" },
    { Title: "القمر", "Parent Title": "Astronomy", Details: "تابع طبيعي للأرض" },
  ]);
  await testability(page, url, "link_notes", { type: "a part of", source_id: String(ids.Moon), target_id: String(ids.Sun) });
  const moon = await (await page.request.get(`${url}/api/notes/${ids.Moon}`)).json();
  const link = moon.children.find((child: { noteTopology: { linkType?: string } }) => child.noteTopology.linkType).id;
  for (const noteId of [ids.Moon, ids.Sun]) await page.request.post(`${url}/api/assimilation`, { data: { noteId } });
  // Sharing: the notebook in the bazaar, and a circle with a notebook of its own.
  await testability(page, url, "share_to_bazaar", { noteTopology: "Astronomy" });
  await testability(page, url, "inject_circle", { circleName: "Chess club", members: "old_learner" });
  await testability(page, url, "inject_notes", {
    externalIdentifier: "old_learner",
    circleName: "Chess club",
    noteTestData: [{ Title: "Openings" }],
  });
  const circles = await (await page.request.get(`${url}/api/circles`)).json();
  const notebook = (await (await page.request.get(`${url}/api/notes/${ids.Astronomy}`)).json()).notebook.id;
  return { ...ids, link, circle: circles[0]?.id, notebook };
}

test.beforeEach(async ({ engram }) => {
  await resetTestData(engram.url);
});

for (const viewport of VIEWPORTS) {
  test(`signed out, ${viewport.name}: no serious accessibility problem and nothing wider than the screen`, async ({ page, engram }) => {
    const ids = await injectNotes(page, engram.url, [
      { Title: "Astronomy" },
      { Title: "Moon", "Parent Title": "Astronomy", Details: "Our **satellite**" },
    ]);
    await testability(page, engram.url, "share_to_bazaar", { noteTopology: "Astronomy" });
    expect(await sweep(page, engram.url, SIGNED_OUT_PAGES(ids), viewport)).toEqual([]);
  });

  test(`signed in, ${viewport.name}: no serious accessibility problem and nothing wider than the screen`, async ({ page, engram }) => {
    await signInThroughIdentifyPage(page, engram.url, "old_learner");
    const ids = await injectLearningData(page, engram.url);
    expect(await sweep(page, engram.url, SIGNED_IN_PAGES(ids), viewport)).toEqual([]);
  });

  test(`open dialogs and menus, ${viewport.name}: no serious accessibility problem and nothing wider than the screen`, async ({
    page,
    engram,
  }) => {
    await signInThroughIdentifyPage(page, engram.url, "old_learner");
    const ids = await injectLearningData(page, engram.url);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const findings: Finding[] = [];
    await page.goto(`${engram.url}/n${ids.Moon}`);
    await page.getByRole("button", { name: "more options" }).click();
    await expect(page.getByRole("menu", { name: "more options" })).toBeVisible();
    findings.push(...(await check(page, `${viewport.name} more options menu`)));
    await page.keyboard.press("Escape");
    for (const dialog of ["Add Child Note", "search and link note"]) {
      await page.getByRole("button", { name: dialog }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      findings.push(...(await check(page, `${viewport.name} ${dialog} dialog`)));
      await page.keyboard.press("Escape");
      await expect(page.getByRole("dialog")).toHaveCount(0);
    }
    await page.getByRole("button", { name: "more options" }).click();
    await page.getByRole("menuitem", { name: "Note Recall Settings" }).click();
    await expect(page.getByRole("dialog", { name: "Note Recall Settings" })).toBeVisible();
    findings.push(...(await check(page, `${viewport.name} Note Recall Settings dialog`)));
    await page.keyboard.press("Escape");
    if (viewport.name === "phone") {
      await page.getByRole("button", { name: "Menu" }).click();
      findings.push(...(await check(page, "phone menu drawer")));
    }
    await page.getByRole("button", { name: "Account" }).click();
    const accountMenu = page.getByRole("menu", { name: "Account" });
    await expect(accountMenu).toBeVisible();
    findings.push(...(await check(page, `${viewport.name} Account menu`)));
    await showcase(page, `account-menu-${viewport.width}`);
    expect(findings).toEqual([]);
    // A tap on the middle of an entry acts (it is on the screen, not past its edge).
    const entry = (await accountMenu.getByRole("menuitem", { name: "Recent..." }).boundingBox())!;
    await page.mouse.click(entry.x + entry.width / 2, entry.y + entry.height / 2);
    await expect(page).toHaveURL(/\/d\/recent$/);
  });

  test(`every admin tab, ${viewport.name}: no serious accessibility problem, nothing wider than the screen, the tab in view`, async ({
    page,
    engram,
  }) => {
    await signInThroughIdentifyPage(page, engram.url, "admin");
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const findings: Finding[] = [];
    for (const tab of ADMIN_TABS) {
      await page.goto(`${engram.url}/d/admin-dashboard/${tab.slug}`);
      const strip = page.getByRole("navigation", { name: "Admin sections" });
      const current = strip.getByRole("link", { name: tab.label });
      await expect(current).toHaveAttribute("aria-current", "page");
      await expect(page.getByRole("region", { name: tab.label })).toBeVisible();
      findings.push(...(await check(page, `${viewport.name} admin ${tab.label}`)));
      // The current tab is wholly inside the strip, which is inside the screen.
      const [stripBox, tabBox] = [(await strip.boundingBox())!, (await current.boundingBox())!];
      if (tabBox.x < stripBox.x - 0.5 || tabBox.x + tabBox.width > Math.min(stripBox.x + stripBox.width, viewport.width) + 0.5)
        findings.push({ page: `${viewport.name} admin ${tab.label}`, problem: "the current tab is scrolled out of view" });
    }
    expect(findings).toEqual([]);
  });
}
