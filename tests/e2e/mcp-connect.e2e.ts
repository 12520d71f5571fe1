import { expect } from "@playwright/test";
import { engramTest, resetTestData, signInThroughIdentifyPage } from "./support";

/** The tokens page's connection snippets: ready to copy, and the HTTP one really connects. */
const test = engramTest("test");

test.beforeEach(async ({ engram }) => resetTestData(engram.url));

test("the tokens page shows snippets that connect an assistant with the new token, also on a phone", async ({ page, engram }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInThroughIdentifyPage(page, engram.url, "old_learner", "/d/generate-token");
  const connect = page.getByRole("region", { name: "Connect your AI assistant" });
  const vsCode = connect.getByLabel("VS Code configuration");
  await expect(vsCode).toContainText(`"url": "${engram.url}/api/mcp"`);
  await expect(vsCode).toContainText('"Authorization": "Bearer <your token>"');

  await page.getByLabel("Token label").fill("VS Code");
  await page.getByRole("button", { name: "Generate Token" }).click();
  const token = await page.getByLabel("New token value").inputValue();
  await expect(vsCode).toContainText(`"Authorization": "Bearer ${token}"`);

  // What the snippet says is enough to talk MCP to Engram.
  const config = JSON.parse((await vsCode.textContent())!).servers.engram;
  const answer = await page.request.post(config.url, {
    headers: { ...config.headers, accept: "application/json, text/event-stream", "content-type": "application/json" },
    data: {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "1" } },
    },
  });
  expect(answer.status()).toBe(200);
  expect(await answer.text()).toContain('"name":"engram"');

  await connect.getByRole("tab", { name: "Claude Desktop" }).click();
  await expect(connect.getByLabel("Claude Desktop configuration")).toContainText(`"--token",\n`);
  await expect(connect.getByLabel("Claude Desktop configuration")).toContainText(`"${token}"`);
  await connect.getByRole("tab", { name: "Command line" }).click();
  await expect(connect.getByLabel("stdio command")).toContainText(`engram mcp --url ${engram.url} --token ${token}`);

  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await connect.getByRole("button", { name: "Copy stdio command" }).click();
  await expect(connect.getByRole("button", { name: "Copied!" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(`--token ${token}`);
  // The page is no wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
