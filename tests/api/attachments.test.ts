/**
 * The files a notebook's notes embed, served to its readers: found from the note that embeds
 * them as Obsidian finds them, redirected to a lasting address, in ranges for players, SVG
 * sandboxed; others are refused.
 */
import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { HELP_VAULT_FILES, helpVaultFiles } from "../support/help-vault";
import { injectNotes } from "../support/notes";
import { type HttpClient, useTestServer } from "../support/server";
import { sqlRows } from "../support/test-database";
import { importZip, makeZip } from "../support/vaults";

describe("attachments of a notebook", () => {
  const server = useTestServer();

  async function importHelpVault(learner: HttpClient) {
    const { noteId } = (await learner.post("/api/notebooks/create", { newTitle: "Help" })).body;
    const notebookId = (await learner.get(`/api/notes/${noteId}`)).body.notebook.id;
    await importZip(server, learner, notebookId, await makeZip(helpVaultFiles()));
    const rows = await sqlRows<{ id: number; title: string }>(server, sql`SELECT id, title FROM notes WHERE notebook_id = ${notebookId}`);
    const ids = Object.fromEntries(rows.map((row) => [row.title, row.id]));
    return ids as Record<string, number>;
  }

  const get = (client: HttpClient | undefined, path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      redirect: "manual",
      headers: { ...(client?.sessionCookie ? { cookie: `engram_session=${client.sessionCookie}` } : {}), ...headers },
    });

  test("an embed's file is found from the note that embeds it and served with its type", async () => {
    const learner = await server.client().loginAs("old_learner");
    const ids = await importHelpVault(learner);
    const embed = (note: string, target: string) => `/api/notes/${ids[note]}/attachment?target=${encodeURIComponent(target)}`;

    const found = await get(learner, embed("Großartige Funktionen", "Bilder/image.png"));
    expect(found.status).toBe(302);
    const location = found.headers.get("location")!;
    expect(location).toMatch(/^\/api\/attachments\/\d+\/image\.png$/);
    const file = await get(learner, location);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(file.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    expect(new Uint8Array(await file.arrayBuffer()) as Uint8Array).toEqual(
      HELP_VAULT_FILES["Obsidian Help/Über Obsidian/Bilder/image.png"]!,
    );
    // The other image.png, by its path; a relative Markdown path from the note's folder.
    const other = await get(learner, (await get(learner, embed("Workspace", "Attachments/image.png"))).headers.get("location")!);
    expect(new Uint8Array(await other.arrayBuffer()) as Uint8Array).toEqual(HELP_VAULT_FILES["Obsidian Help/Attachments/image.png"]!);
    expect((await get(learner, embed("Link notes", "../Attachments/link-preview.png"))).status).toBe(302);

    const svg = await get(learner, (await get(learner, embed("Home", "Obsidian logo.svg"))).headers.get("location")!);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    expect(svg.headers.get("content-security-policy")).toStartWith("sandbox;");

    const wav = (await get(learner, embed("Audio recorder", "Tone.wav"))).headers.get("location")!;
    const part = await get(learner, wav, { range: "bytes=0-43" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-43/${HELP_VAULT_FILES["Obsidian Help/Attachments/Tone.wav"]!.byteLength}`);
    expect((await part.arrayBuffer()).byteLength).toBe(44);

    expect((await get(learner, embed("Home", "Nowhere.png"))).status).toBe(404);
  });

  test("only readers of the notebook: signed out 401, another user 403", async () => {
    const learner = await server.client().loginAs("old_learner");
    const ids = await importHelpVault(learner);
    const embed = `/api/notes/${ids.Home}/attachment?target=${encodeURIComponent("link-preview.png")}`;
    const location = (await get(learner, embed)).headers.get("location")!;
    const other = await server.client().loginAs("another_old_learner");
    expect((await get(undefined, embed)).status).toBe(401);
    expect((await get(undefined, location)).status).toBe(401);
    expect((await get(other, embed)).status).toBe(403);
    expect((await get(other, location)).status).toBe(403);
    const theirs = await injectNotes(other, [{ Title: "Theirs" }]);
    expect((await get(other, `/api/notes/${theirs.Theirs}/attachment?target=link-preview.png`)).status).toBe(404);
  });
});
