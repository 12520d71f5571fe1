import { expect } from "@playwright/test";
import { engramTest, resetTestData, signInThroughIdentifyPage, waitForHydration } from "./support";

const test = engramTest("test");

test.beforeEach(async ({ engram }) => resetTestData(engram.url));

test("a learner adds a notebook, changes its settings and finds it among the recent notes", async ({ page, engram }) => {
  await signInThroughIdentifyPage(page, engram.url, "old_learner", "/d/notebooks");
  await expect(page).toHaveURL(/\/d\/notebooks$/);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1, name: "Notebooks" })).toBeVisible();
  await expect(page.getByText("You have no notebooks yet. Add one to start taking notes.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Subscribed Notebooks" })).toBeVisible();
  await expect(page.getByText("You have not subscribed to any notebooks.")).toBeVisible();

  await page.getByRole("button", { name: "Add New Notebook" }).click();
  const newNotebook = page.getByRole("dialog", { name: "Add New Notebook" });
  await expect(newNotebook.getByLabel("Title")).toBeFocused();
  await newNotebook.getByRole("button", { name: "Submit" }).click();
  await expect(newNotebook.getByText("size must be between 1 and 150")).toBeVisible();
  await expect(newNotebook.getByLabel("Title")).toHaveAttribute("aria-invalid", "true");
  await expect(newNotebook.getByLabel("Title")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(newNotebook).toHaveCount(0);

  // While the notebook is being created the form is disabled, and a second submission is ignored.
  let creations = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/notebooks/create", async (route) => {
    creations += 1;
    await released;
    await route.continue();
  });
  await page.getByRole("button", { name: "Add New Notebook" }).click();
  await newNotebook.getByLabel("Title").fill("Spanish");
  await newNotebook.getByLabel("Title").press("Enter");
  await expect(newNotebook.getByRole("button", { name: "Submit" })).toBeDisabled();
  await newNotebook.locator("form").evaluate((form: HTMLFormElement) => form.requestSubmit());
  release();
  await expect(page).toHaveURL(/\/n\d+$/);
  await waitForHydration(page);
  expect(creations).toBe(1);
  await page.unrouteAll();
  const notePageUrl = page.url();

  await page.goto(`${engram.url}/d/notebooks`);
  const card = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: "Spanish", exact: true }) });
  await expect(card).toBeVisible();
  await expect(page.getByText("You have no notebooks yet.")).toHaveCount(0);
  await expect(card.getByRole("link", { name: "Spanish", exact: true })).toHaveAttribute("href", new URL(notePageUrl).pathname);

  await card.getByRole("button", { name: "Edit notebook settings" }).click();
  const settings = page.getByRole("dialog", { name: "Edit notebook settings" });
  await expect(settings.getByLabel("Skip Memory Tracking Entirely")).not.toBeChecked();
  await expect(settings.getByLabel("Number Of Questions In Assessment")).toHaveValue("");
  await expect(settings.getByLabel("Certificate Expiry")).toHaveValue("1y");
  await settings.getByLabel("Certificate Expiry").fill("forever");
  await settings.getByRole("button", { name: "Update", exact: true }).click();
  await expect(settings.getByText('must look like "1y 1m 1d" (years, months, days)')).toBeVisible();
  await expect(settings.getByLabel("Certificate Expiry")).toHaveAttribute("aria-invalid", "true");
  await expect(settings.getByLabel("Certificate Expiry")).toBeFocused();

  await settings.getByLabel("Certificate Expiry").fill("2y");
  await settings.getByLabel("Number Of Questions In Assessment").fill("5");
  await Promise.all([page.waitForEvent("load"), settings.getByRole("button", { name: "Update", exact: true }).click()]);
  await expect(settings).toHaveCount(0);
  await card.getByRole("button", { name: "Edit notebook settings" }).click();
  await expect(settings.getByLabel("Certificate Expiry")).toHaveValue("2y");
  await expect(settings.getByLabel("Number Of Questions In Assessment")).toHaveValue("5");
  await page.keyboard.press("Escape");
  await expect(settings).toHaveCount(0);

  await page.getByRole("button", { name: "Account" }).click();
  await page.getByRole("menuitem", { name: "Recent..." }).click();
  await expect(page).toHaveURL(/\/d\/recent$/);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1, name: "Recent" })).toBeVisible();
  const addedTab = page.getByRole("tab", { name: "Recently Added/Updated" });
  await expect(addedTab).toHaveAttribute("aria-selected", "true");
  const addedPanel = page.getByRole("tabpanel", { name: "Recently Added/Updated" });
  await expect(addedPanel.getByRole("link", { name: "Spanish", exact: true })).toHaveAttribute("href", new URL(notePageUrl).pathname);
  await expect(addedPanel.getByRole("listitem").filter({ hasText: "Spanish" }).locator("time")).toHaveAttribute(
    "datetime",
    /^\d{4}-\d\d-\d\dT/,
  );

  await addedTab.focus();
  await page.keyboard.press("ArrowRight");
  const learnedTab = page.getByRole("tab", { name: "Recently Learned" });
  await expect(learnedTab).toBeFocused();
  await expect(learnedTab).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel", { name: "Recently Learned" }).getByText("Nothing learned yet.")).toBeVisible();

  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "Recently Reviewed" })).toBeFocused();
  await expect(page.getByRole("tabpanel", { name: "Recently Reviewed" }).getByText("Nothing reviewed yet.")).toBeVisible();

  await page.keyboard.press("ArrowRight");
  await expect(addedTab).toBeFocused();
  await expect(addedPanel.getByRole("link", { name: "Spanish", exact: true })).toBeVisible();
});

test("the recent page says so when there are no notes yet, and its times hydrate cleanly", async ({ page, engram }) => {
  const problems: string[] = [];
  page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("response", (response) => response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`));
  await signInThroughIdentifyPage(page, engram.url, "old_learner", "/d/recent");
  await expect(page.getByRole("tabpanel", { name: "Recently Added/Updated" }).getByText("No notes yet.")).toBeVisible();

  const response = await page.request.post(`${engram.url}/api/notebooks/create`, { data: { newTitle: "French" } });
  expect(response.ok()).toBe(true);
  await page.reload();
  const time = page.getByRole("tabpanel", { name: "Recently Added/Updated" }).locator("time");
  await expect(time).toBeVisible();
  expect(problems).toEqual([]);
  // The server writes UTC; after hydration the browser shows its local format instead.
  await expect(time).not.toHaveText(/UTC$/);
  expect(problems).toEqual([]);
});
