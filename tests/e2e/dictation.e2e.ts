import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect } from "@playwright/test";
import {
  type EngramServer,
  engramTest,
  injectNotes,
  resetTestData,
  signInThroughIdentifyPage,
  startEngram,
  startFakeOpenAIProcess,
} from "./support";

/**
 * Voice dictation as a person uses it: Chromium's fake microphone plays a generated
 * WAV (1.5 s of a tone, then 4 s of silence, looped); the silence ends a chunk, the fake OpenAI
 * transcribes it and the completion lands in the details; stopping offers the WAV to download.
 */
const audioDir = mkdtempSync(join(tmpdir(), "engram-dictation-"));
const audioFile = join(audioDir, "speech.wav");

function toneThenSilence(): Buffer {
  const rate = 16_000;
  const samples = Math.round(rate * 5.5);
  const buffer = Buffer.alloc(44 + samples * 2);
  buffer.write("RIFF", 0);
  buffer.writeUInt32LE(36 + samples * 2, 4);
  buffer.write("WAVEfmt ", 8);
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(1, 22);
  buffer.writeUInt32LE(rate, 24);
  buffer.writeUInt32LE(rate * 2, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write("data", 36);
  buffer.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) {
    const value = i < rate * 1.5 ? Math.sin((2 * Math.PI * 440 * i) / rate) * 0.3 : 0;
    buffer.writeInt16LE(Math.round(value * 0x7fff), 44 + i * 2);
  }
  return buffer;
}
writeFileSync(audioFile, toneThenSilence());

const test = engramTest("test");
// The config's launch options (Debian's chromium and its flags) plus the fake microphone.
test.use({
  launchOptions: async ({ launchOptions }, use) =>
    use({
      ...launchOptions,
      args: [
        ...(launchOptions.args ?? []),
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        `--use-file-for-fake-audio-capture=${audioFile}`,
      ],
    }),
  permissions: ["microphone"],
});

test.describe("voice dictation", () => {
  let ai: EngramServer;
  let fake: { url: string; process: ChildProcess };

  test.beforeAll(async () => {
    fake = await startFakeOpenAIProcess(`
      fake.chat.respondWithJson({ deleteFromEnd: 0, completion: " Hello from the fake." }, { match: { schemaName: "complete_note_details" }, times: Infinity });
      fake.chat.respondWithToolCall("suggest_note_title", { newTitle: "France dictated" }, { match: { toolName: "suggest_note_title" }, times: Infinity });
    `);
    ai = await startEngram("test", { OPENAI_API_KEY: "test-key" });
  });
  test.afterAll(async () => {
    await ai?.stop();
    fake?.process.kill("SIGTERM");
    rmSync(audioDir, { recursive: true, force: true });
  });

  test("dictated speech is appended to the details, a title is suggested, and the recording can be downloaded", async ({ page }) => {
    // Records the object URLs the page releases (the browser gives no other way to tell).
    await page.addInitScript(() => {
      const w = window as unknown as { revokedUrls: string[] };
      w.revokedUrls = [];
      const revoke = URL.revokeObjectURL.bind(URL);
      URL.revokeObjectURL = (url: string) => {
        w.revokedUrls.push(url);
        revoke(url);
      };
    });
    await resetTestData(ai.url);
    expect((await page.request.post(`${ai.url}/api/testability/replace_service_url`, { data: { openAi: fake.url } })).ok()).toBe(true);
    const ids = await injectNotes(page, ai.url, [
      { Title: "Countries" },
      { Title: "France", "Parent Title": "Countries", Details: "Its capital is Paris." },
    ]);
    await signInThroughIdentifyPage(page, ai.url, "old_learner", `/n${ids.France}`);
    await page.setViewportSize({ width: 390, height: 844 });

    await page.getByRole("button", { name: "Audio tools" }).click();
    const tools = page.getByRole("region", { name: "Audio tools" });
    await expect(tools.getByLabel("Microphone")).toBeVisible();
    const axe = await new AxeBuilder({ page }).include(".audio-tools").withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
    await tools.getByRole("button", { name: "Start recording" }).click();
    await expect(tools.getByRole("status")).toHaveText("Recording...");
    // The tone, then 3 s of silence end the first chunk.
    await expect(page.locator(".note-details")).toContainText("Hello from the fake.", { timeout: 20_000 });
    await expect(page.getByLabel("note title")).toHaveValue("France dictated");
    await tools.getByRole("button", { name: "Stop recording" }).click();
    const download = page.waitForEvent("download");
    await tools.getByRole("link", { name: "Download audio" }).click();
    expect((await download).suggestedFilename()).toBe("dictation.wav");
    await expect(tools.getByRole("alert")).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

    // Closing the tools releases the recording's object URL (the WAV is not kept in memory).
    const wavUrl = await tools.getByRole("link", { name: "Download audio" }).getAttribute("href");
    const revoked = () => page.evaluate(() => (window as unknown as { revokedUrls: string[] }).revokedUrls);
    expect(await revoked()).not.toContain(wavUrl);
    await page.getByRole("button", { name: "Audio tools" }).click();
    await expect(tools).toHaveCount(0);
    expect(await revoked()).toContain(wavUrl);

    await expect(page.locator(".save-state")).toHaveText("", { timeout: 10_000 });
    await page.reload();
    await expect(page.locator(".note-details")).toContainText("Its capital is Paris. Hello from the fake.");
  });
});
