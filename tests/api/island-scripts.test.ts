/**
 * The scripts a page links for its islands: the app shell's islands (menus, search, undo, toasts)
 * come in one script (scripts/build-client.ts), which the page links once, and every script that
 * script imports is served.
 */
import { describe, expect, test } from "bun:test";
import { injectNotes } from "../support/notes";
import { type HttpClient, useTestServer } from "../support/server";

const moduleScripts = (html: string) => [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]!);

/** The files a module imports at once (static imports), as served paths. */
const staticImports = (src: string, text: string) =>
  [...text.matchAll(/(?:from|import)"\.\/([^"]+\.js)"/g)].map((m) => new URL(m[1]!, `http://x${src}`).pathname);

describe("island scripts", () => {
  const server = useTestServer();

  test("the app shell's islands share one script, linked once; every script is linked once", async () => {
    const learner = await server.client().loginAs("old_learner");
    const page = await learner.get("/");
    expect(page.status).toBe(200);
    for (const island of ["account-menu", "search-note", "undo-button", "shell-overlays", "menu-drawer"])
      expect(page.text).toContain(`data-island="${island}"`);

    const scripts = moduleScripts(page.text);
    expect(scripts.length).toBeGreaterThan(0);
    expect(new Set(scripts).size).toBe(scripts.length);

    const sources = await Promise.all(scripts.map(async (src) => ({ src, text: (await learner.get(src)).text })));
    const shell = sources.filter(({ text }) => text.includes('"account-menu"'));
    expect(shell.length).toBe(1);
    for (const island of ["search-note", "undo-button", "shell-overlays", "menu-drawer"]) expect(shell[0]!.text).toContain(`"${island}"`);

    // The vendor file and the chunks they import are served (a relative import the build got wrong would 404).
    for (const { src, text } of sources)
      for (const m of text.matchAll(/from"\.\/([^"]+\.js)"/g)) {
        const imported = await learner.get(new URL(m[1]!, `http://x${src}`).pathname);
        expect({ src, imported: m[1], status: imported.status }).toEqual({ src, imported: m[1], status: 200 });
      }
  });

  /** The files the page's scripts load at once, by name without their hash ("chunk" for each chunk). */
  async function filesLoadedAtOnce(learner: HttpClient, path: string, from: RegExp) {
    const page = await learner.get(path);
    const loaded = new Set<string>();
    const pending = moduleScripts(page.text).filter((src) => from.test(src));
    while (pending.length) {
      const src = pending.pop()!;
      if (loaded.has(src)) continue;
      loaded.add(src);
      pending.push(...staticImports(src, (await learner.get(src)).text));
    }
    return [...loaded].map((src) => src.replace(/^\/assets\/|-\w+\.js$/g, "")).sort();
  }

  test("the code the shell's islands share with the others comes as one file: the shell's script loads two more", async () => {
    const learner = await server.client().loginAs("old_learner");
    expect(await filesLoadedAtOnce(learner, "/", /\/app-shell-/)).toEqual(["app-shell", "chunk", "vendor"]);
  });

  test("the note page's script loads no small chunk of its own: what it shares with lazy parts is in the shared chunk", async () => {
    const learner = await server.client().loginAs("old_learner");
    const ids = await injectNotes(learner, [
      { Title: "Languages" },
      { Title: "French", "Parent Title": "Languages", Details: "A language." },
    ]);
    expect(await filesLoadedAtOnce(learner, `/n${ids.French}`, /\/(app-shell|note-page)-/)).toEqual([
      "app-shell",
      "chunk",
      "note-page",
      "vendor",
    ]);
  });
});
