import { expect } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage, testability, waitForHydration } from "./support";

const test = engramTest("test");

test.beforeEach(async ({ engram }) => resetTestData(engram.url));

test("two learners converse about a bazaar note; the owner's Messages badge and open conversation update without a reload", async ({
  page,
  engram,
  browser,
}) => {
  const ids = await injectNotes(page, engram.url, [
    { Title: "Baking" },
    { Title: "Sourdough", "Parent Title": "Baking", Details: "Flour, water, salt." },
  ]);
  await testability(page, engram.url, "share_to_bazaar", { noteTopology: "Baking" });

  // The owner waits in the message center.
  await signInThroughIdentifyPage(page, engram.url, "old_learner", "/d/message-center");
  await expect(page.getByText("There is no conversation currently.")).toBeVisible();
  const badge = page
    .getByRole("navigation", { name: "Main menu" })
    .getByRole("link", { name: /Messages/ })
    .locator(".badge");
  await expect(badge).toHaveCount(0);

  // A reader of the bazaar note starts a conversation from the note page.
  const reader = await (await browser.newContext()).newPage();
  await signInThroughIdentifyPage(reader, engram.url, "another_old_learner", `/n${ids.Sourdough}`);
  await reader.getByRole("button", { name: "Start a conversation about this note" }).click();
  const panel = reader.getByRole("region", { name: "Conversations about this note" });
  await panel.getByLabel("Message").fill("How long does it rise?");
  await panel.getByLabel("Message").press("Enter");
  await expect(panel.getByText("How long does it rise?")).toBeVisible();

  // Within a few seconds the owner's badge and list show it, unread.
  await expect(badge).toHaveText("1", { timeout: 15_000 });
  const entry = page.getByRole("navigation", { name: "Conversations" }).getByRole("link", { name: /Sourdough/ });
  await expect(entry).toContainText("Another Old Learner");
  await expect(entry).toContainText("unread");
  await entry.click();
  await expect(page).toHaveURL(/\/d\/message-center\/\d+$/);
  await expect(page.getByRole("region", { name: "Conversation: Sourdough" }).getByText("How long does it rise?")).toBeVisible();
  await expect(badge).toHaveCount(0, { timeout: 15_000 });
  const input = page.getByLabel("Message");
  await input.fill("   ");
  await expect(page.getByRole("button", { name: "Send message", exact: true })).toBeDisabled();
  await input.fill("About four hours.");
  await page.getByRole("button", { name: "Send message", exact: true }).click();

  // The reader sees the answer appear in the open panel, without a reload.
  await expect(panel.getByText("About four hours.")).toBeVisible({ timeout: 15_000 });
  await reader.goto(`${engram.url}/d/message-center`);
  await waitForHydration(reader);
  await expect(reader.getByRole("navigation", { name: "Conversations" }).getByRole("link", { name: /Sourdough/ })).toContainText(
    "Old Learner",
  );
});
