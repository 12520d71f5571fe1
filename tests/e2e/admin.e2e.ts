import { expect, type Page } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage, testability, useEngramWithFakeOpenAI } from "./support";

const test = engramTest("test");

async function confirm(page: Page) {
  await page.getByRole("dialog", { name: "Please confirm" }).getByRole("button", { name: "OK" }).click();
}

test.describe("the admin dashboard", () => {
  const { ai, fake } = useEngramWithFakeOpenAI();

  test("an admin deletes a failure report, approves a certification request, saves the models, removes a bazaar notebook and grants admin", async ({
    page,
    browser,
  }) => {
    await resetTestData(ai.url);
    expect((await page.request.post(`${ai.url}/api/testability/replace_service_url`, { data: { openAi: fake.url } })).ok()).toBe(true);
    for (let i = 0; i < 2; i++) await page.request.post(`${ai.url}/api/testability/trigger_exception`);
    await injectNotes(page, ai.url, [{ Title: "Capitals" }, { Title: "Rivers" }]);
    await testability(page, ai.url, "share_to_bazaar", { noteTopology: "Rivers" });

    // A learner asks for certification.
    const learner = await (await browser.newContext()).newPage();
    await signInThroughIdentifyPage(learner, ai.url, "old_learner", "/d/notebooks");
    const capitals = learner.getByRole("listitem").filter({ hasText: "Capitals" });
    await capitals.getByRole("button", { name: "Edit notebook settings" }).click();
    await learner.getByRole("dialog", { name: "Edit notebook settings" }).getByRole("button", { name: "Send Request" }).click();
    await expect(learner.getByRole("button", { name: "Approval Pending" })).toBeDisabled();

    // A non-admin cannot see the dashboard.
    const other = await (await browser.newContext()).newPage();
    await signInThroughIdentifyPage(other, ai.url, "non_admin", "/d/admin-dashboard");
    await expect(other.getByText("It seems you cannot access this page.")).toBeVisible();

    await signInThroughIdentifyPage(page, ai.url, "admin", "/");
    await page.getByRole("button", { name: "Account" }).click();
    await page.getByRole("menuitem", { name: "Admin Dashboard" }).click();
    await page.getByRole("link", { name: "Failure Reports" }).click();
    await expect(page).toHaveURL(/\/d\/admin-dashboard\/failure-reports$/);
    const reports = page.getByRole("region", { name: "Failure Reports" }).getByRole("checkbox");
    await expect(reports).toHaveCount(2);
    await expect(page.getByRole("button", { name: "Delete Selected" })).toHaveCount(0);
    await reports.first().check();
    await page.getByRole("button", { name: "Delete Selected" }).click();
    await confirm(page);
    await expect(reports).toHaveCount(1);
    await page.getByRole("region", { name: "Failure Reports" }).getByRole("link").first().click();
    await expect(page.getByLabel("error detail")).toContainText("for failure report");

    await page.goto(`${ai.url}/d/admin-dashboard/certification-requests`);
    await page.getByRole("listitem").filter({ hasText: "Capitals" }).getByRole("button", { name: "Approve" }).click();
    await expect(page.getByText("No certification request found.")).toBeVisible();
    await learner.reload();
    await capitals.getByRole("button", { name: "Edit notebook settings" }).click();
    await expect(learner.getByRole("button", { name: "Certificate Request Approved" })).toBeDisabled();

    await page.getByRole("link", { name: "Manage Models" }).click();
    await page.getByLabel("Evaluation").selectOption("gpt-4o");
    await page.getByRole("button", { name: "Save" }).click();
    await expect
      .poll(async () => (await (await page.request.get(`${ai.url}/api/settings/current-model-version`)).json()).evaluationModel)
      .toBe("gpt-4o");
    await page.reload();
    await expect(page.getByLabel("Evaluation")).toHaveValue("gpt-4o");
    // The embeddings: a dimension asked of the provider (notes are embedded again in the background).
    await expect(page.getByLabel("Dimensions")).toHaveValue("");
    await page.getByLabel("Dimensions").fill("256");
    await page.getByRole("button", { name: "Re-embed with these" }).click();
    await expect
      .poll(async () => (await (await page.request.get(`${ai.url}/api/settings/embedding`)).json()).embeddingDimensions)
      .toBe(256);
    await page.reload();
    await expect(page.getByLabel("Dimensions")).toHaveValue("256");

    await page.getByRole("link", { name: "Manage Bazaar" }).click();
    await page.getByRole("listitem").filter({ hasText: "Rivers" }).getByRole("button", { name: "Remove" }).click();
    await confirm(page);
    await expect(page.getByText("No notebook is in the bazaar.")).toBeVisible();
    expect(await (await page.request.get(`${ai.url}/api/bazaar`)).json()).toEqual([]);

    await page.getByRole("link", { name: "Users" }).click();
    await page.getByRole("row").filter({ hasText: "non_admin" }).getByRole("button", { name: "Grant admin" }).click();
    await confirm(page);
    await expect(page.getByRole("row").filter({ hasText: "non_admin" }).getByRole("button", { name: "Revoke admin" })).toBeVisible();
    await other.reload();
    await expect(other.getByRole("navigation", { name: "Admin sections" })).toBeVisible();
  });
});
