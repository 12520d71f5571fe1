import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import JSZip from "jszip";
import { relayOutboxes } from "../../src/jobs/worker";
import { injectNotes } from "../support/notes";
import { type HttpClient, useTestServer } from "../support/server";
import { sqlRows, sqlRun } from "../support/test-database";
import { exportZip, importZip, makePng, makeZip, titlesOf, treeOf, unzip } from "../support/vaults";

describe("Obsidian vaults", () => {
  const server = useTestServer();

  async function notebookOf(client: HttpClient, noteId: number): Promise<number> {
    return (await client.get(`/api/notes/${noteId}`)).body.notebook.id;
  }

  async function newNotebook(client: HttpClient, title: string) {
    const { noteId } = (await client.post("/api/notebooks/create", { newTitle: title })).body;
    return { headId: noteId as number, notebookId: await notebookOf(client, noteId) };
  }

  async function uploadImage(client: HttpClient, noteId: number, png: Uint8Array<ArrayBuffer>) {
    const form = new FormData();
    form.append("uploadImage", new File([png], "x.png", { type: "image/png" }));
    const response = await fetch(`${server.url}/api/notes/${noteId}`, {
      method: "PATCH",
      body: form,
      headers: { cookie: `engram_session=${client.sessionCookie}` },
    });
    expect(response.status).toBe(200);
  }

  describe("export", () => {
    test("Root Note > Parent Note > Child Note, Leaf Note gives exactly the reference's files", async () => {
      const learner = await server.client().loginAs("old_learner");
      const ids = await injectNotes(learner, [
        { Title: "Root Note", Details: "The root" },
        { Title: "Parent Note", "Parent Title": "Root Note", Details: "About parents" },
        { Title: "Child Note", "Parent Title": "Parent Note", Details: "A child" },
        { Title: "Leaf Note", "Parent Title": "Parent Note" },
      ]);
      const notebookId = await notebookOf(learner, ids["Root Note"]);
      const { response, bytes } = await exportZip(server, learner, notebookId);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/zip");
      expect(response.headers.get("content-disposition")).toBe(
        `attachment; filename="Root Note-obsidian.zip"; filename*=UTF-8''Root%20Note-obsidian.zip`,
      );
      const files = await unzip(bytes);
      expect([...files.keys()].sort()).toEqual([
        "Root Note/Parent Note/Child Note.md",
        "Root Note/Parent Note/Leaf Note.md",
        "Root Note/Parent Note/__index.md",
        "Root Note/__index.md",
      ]);
      const child = files.get("Root Note/Parent Note/Child Note.md")!.text;
      expect(child).toMatch(
        new RegExp(
          `^---\\nnote_id: ${ids["Child Note"]}\\ncreated_at: \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\nupdated_at: [^\\n]+\\n---\\n# Child Note\\nA child\\n$`,
        ),
      );
      expect(files.get("Root Note/Parent Note/__index.md")!.text).toContain("# Parent Note\nAbout parents\n");
    });

    test("links become typed wikilinks, images are written beside the note, unsafe titles get safe unique names, deleted notes are left out", async () => {
      const learner = await server.client().loginAs("old_learner");
      const ids = await injectNotes(learner, [
        { Title: "Café ☕ 日本" },
        { Title: "a/b: c?", "Parent Title": "Café ☕ 日本", Details: "slashes" },
        { Title: "a_b_ c_", "Parent Title": "Café ☕ 日本" },
        { Title: "CON", "Parent Title": "Café ☕ 日本" },
        { Title: ".hidden", "Parent Title": "Café ☕ 日本" },
        { Title: "Target", "Parent Title": "Café ☕ 日本" },
        { Title: "Gone", "Parent Title": "Café ☕ 日本" },
      ]);
      const notebookId = await notebookOf(learner, ids["Café ☕ 日本"]);
      expect((await learner.post(`/api/links/create/${ids["a/b: c?"]}/${ids.Target}`, { linkType: "a part of" })).status).toBe(200);
      await uploadImage(learner, ids.Target, makePng(3, 2));
      expect((await learner.post(`/api/notes/${ids.Gone}/delete`)).status).toBe(200);

      const { response, bytes } = await exportZip(server, learner, notebookId);
      expect(response.headers.get("content-disposition")).toBe(
        `attachment; filename="Caf_ _ __-obsidian.zip"; filename*=UTF-8''Caf%C3%A9%20%E2%98%95%20%E6%97%A5%E6%9C%AC-obsidian.zip`,
      );
      const files = await unzip(bytes);
      const top = "Café ☕ 日本";
      expect([...files.keys()].sort()).toEqual(
        [
          `${top}/CON_.md`,
          `${top}/Target.md`,
          `${top}/Target.png`,
          `${top}/__index.md`,
          `${top}/a_b_ c_ (2).md`,
          `${top}/a_b_ c_.md`,
          `${top}/hidden.md`,
        ].sort(),
      );
      expect(files.get(`${top}/a_b_ c_.md`)!.text).toEndWith("# a/b: c?\nslashes\n\na part of:: [[Target]]\n");
      // The uploaded image is written beside its note, embedded last and named in front matter (as the import reads it back).
      expect(files.get(`${top}/Target.md`)!.text).toContain('\nnote_image: "[[Target.png]]"\n');
      expect(files.get(`${top}/Target.md`)!.text).toEndWith("# Target\n\n![[Target.png]]\n");
      expect(files.get(`${top}/Target.png`)!.bytes).toEqual(makePng(3, 2));
    });

    test("signed out is 401, another user's notebook is 403", async () => {
      const learner = await server.client().loginAs("old_learner");
      const ids = await injectNotes(learner, [{ Title: "Private" }]);
      const notebookId = await notebookOf(learner, ids.Private);
      expect((await exportZip(server, undefined, notebookId)).response.status).toBe(401);
      const other = await server.client().loginAs("another_old_learner");
      const refused = await exportZip(server, other, notebookId);
      expect(refused.response.status).toBe(403);
      expect(new TextDecoder().decode(refused.bytes)).not.toContain("Private");
      expect((await importZip(server, undefined, notebookId, await makeZip({ "a.md": "x" }))).status).toBe(401);
      expect((await importZip(server, other, notebookId, await makeZip({ "a.md": "x" }))).status).toBe(403);
      expect(titlesOf(await treeOf(server, ids.Private))).toBe("Private");
    });
  });

  describe("import", () => {
    test("the reference case: title 1/note 1/note 2.md into title 1 > note 1 adds exactly note 2", async () => {
      const learner = await server.client().loginAs("old_learner");
      const ids = await injectNotes(learner, [{ Title: "title 1" }, { Title: "note 1", "Parent Title": "title 1" }]);
      const notebookId = await notebookOf(learner, ids["title 1"]);
      const zip = await makeZip({
        "title 1/__index.md": "# title 1\n",
        "title 1/note 1/__index.md": "# note 1\n",
        "title 1/note 1/note 2.md": "# note 2\n\nSecond note\n",
      });
      const result = await importZip(server, learner, notebookId, zip);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ created: 1, updated: 0, links: 0, images: 0, attachments: 0, skipped: [] });
      const tree = await treeOf(server, ids["title 1"]);
      expect(titlesOf(tree)).toEqual({ "title 1": [{ "note 1": ["note 2"] }] });
      expect(tree.children[0]!.children[0]!.details).toBe("Second note");
    });

    test("a top folder of another name is the head note and merges by title; importing twice changes nothing", async () => {
      const learner = await server.client().loginAs("old_learner");
      const ids = await injectNotes(learner, [{ Title: "Biology" }, { Title: "Cells", "Parent Title": "Biology", Details: "old" }]);
      const notebookId = await notebookOf(learner, ids.Biology);
      const zip = await makeZip({
        "Doughnut/Cells/__index.md":
          "---\ntags:\n  - cell\n  - life\naliases: [cytes]\nnote_id: 999\n---\n# Cells\n\nThe units of life. See [[Mitochondria|the powerhouse]].\n",
        "Doughnut/Cells/Mitochondria.md": "Powerhouse.\n\na part of:: [[Cells]]\n",
        "Doughnut/Cells/Ribosome.md": "Makes proteins; see [the powerhouse](Mitochondria.md) and [cells](../Cells/__index.md).\n",
        "Doughnut/Cells.md": "A second note titled Cells: the folder has its own __index.md",
      });
      const first = await importZip(server, learner, notebookId, zip);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ created: 3, updated: 1, links: 4, images: 0 });
      const tree = await treeOf(server, ids.Biology);
      expect(titlesOf(tree)).toEqual({ Biology: [{ Cells: ["Mitochondria", "Ribosome"] }, "Cells"] });
      expect(tree.children[0]!.children[1]!.links).toEqual(["related to → Mitochondria", "related to → Cells"]);
      const cells = tree.children[0]!;
      expect(cells.details).toBe(
        "---\ntags:\n  - cell\n  - life\naliases: [cytes]\n---\n\nThe units of life. See [[Mitochondria|the powerhouse]].",
      );
      expect(cells.links).toEqual(["related to → Mitochondria"]);
      expect(cells.children[0]!.links).toEqual(["a part of → Cells"]);
      expect(cells.children[0]!.details).toBe("Powerhouse.");

      const again = await importZip(server, learner, notebookId, zip);
      expect(again.body).toMatchObject({ created: 0, updated: 0, links: 0, images: 0 });
      expect(await treeOf(server, ids.Biology)).toEqual(tree);
    });

    test("folder notes, an embedded PNG, emoji names and junk files", async () => {
      const learner = await server.client().loginAs("old_learner");
      const { headId, notebookId } = await newNotebook(learner, "Vault");
      const png = makePng(4, 4, [10, 200, 10]);
      const zip = await makeZip({
        "My Vault/.obsidian/app.json": "{}",
        "My Vault/.obsidian/workspace.json": "{}",
        "My Vault/.DS_Store": "junk",
        "My Vault/__MACOSX/._x.md": "junk",
        "My Vault/Fruit 🍎.md": "Folder note beside its folder.\n\n![[apple.png]]\n",
        "My Vault/Fruit 🍎/Äpfel.md": "---\ntitle: Äpfel & Birnen\n---\nSee ![](../attachments/unused.pdf) and [[Nowhere]].\n",
        "My Vault/attachments/apple.png": png,
        "My Vault/attachments/unused.pdf": "%PDF-1.4",
        "My Vault/attachments/stray.txt": "nobody embeds me",
      });
      const result = await importZip(server, learner, notebookId, zip);
      expect(result.status).toBe(200);
      // The embedded PNG and PDF are kept for the notebook; the embeds stay where the text has them.
      expect(result.body).toMatchObject({ created: 2, updated: 0, links: 0, images: 0, attachments: 2 });
      expect(result.body.skipped).toEqual([
        { path: "My Vault/.obsidian/", reason: "hidden or system file" },
        { path: "My Vault/.DS_Store", reason: "hidden or system file" },
        { path: "My Vault/__MACOSX/", reason: "hidden or system file" },
        { path: "My Vault/attachments/stray.txt", reason: "not a Markdown note, and no note embeds it" },
        { path: "My Vault/Fruit 🍎/Äpfel.md", reason: "the link [[Nowhere]] names no note of the vault" },
      ]);
      const tree = await treeOf(server, headId);
      expect(titlesOf(tree)).toEqual({ Vault: [{ "Fruit 🍎": ["Äpfel & Birnen"] }] });
      expect(tree.children[0]!.details).toBe("Folder note beside its folder.\n\n![[apple.png]]");
      expect(tree.children[0]!.image).toBeUndefined();
      expect(tree.children[0]!.children[0]!.details).toBe("See ![](../attachments/unused.pdf) and [[Nowhere]].");
      expect(
        await sqlRows(
          server,
          sql`SELECT path, content_type AS type, CAST(length(bytes) AS integer) AS size FROM notebook_attachments ORDER BY path`,
        ),
      ).toEqual([
        { path: "attachments/apple.png", type: "image/png", size: png.byteLength },
        { path: "attachments/unused.pdf", type: "application/pdf", size: 8 },
      ]);
    });

    test("a zip whose entries are not all under one folder imports its root into the head note", async () => {
      const learner = await server.client().loginAs("old_learner");
      const { headId, notebookId } = await newNotebook(learner, "Loose");
      const result = await importZip(
        server,
        learner,
        notebookId,
        await makeZip({
          "__index.md": "# Loose\n\nHead text",
          "one.md": "1",
          "sub/two.md": "2",
          "sub/sub.md": "# sub\n\nA folder note inside its folder",
        }),
      );
      expect(result.status).toBe(200);
      const tree = await treeOf(server, headId);
      expect(titlesOf(tree)).toEqual({ Loose: ["one", { sub: ["two"] }] });
      expect(tree.details).toBe("Head text");
      expect(tree.children[1]!.details).toBe("A folder note inside its folder");
    });

    test("a zip bomb, a path leaving the archive and a damaged zip are refused and leave the notebook as it was", async () => {
      const learner = await server.client().loginAs("old_learner");
      const ids = await injectNotes(learner, [{ Title: "Safe", Details: "untouched" }]);
      const notebookId = await notebookOf(learner, ids.Safe);
      const before = await treeOf(server, ids.Safe);

      // A zip declaring 600 MiB once inflated: refused before anything is inflated.
      const bomb = await makeZip({ "Safe/bomb.md": "x".repeat(1000), "Safe/ok.md": "fine" });
      patchDeclaredSize(bomb, 300 * 1024 * 1024);
      const bombed = await importZip(server, learner, notebookId, bomb);
      expect(bombed.status).toBe(400);
      expect(bombed.body.errors.file).toBe("Failed to import file: the zip would inflate to more than 512 MiB");

      // A zip that lies: it declares 10 bytes and inflates to 16 MiB; inflating stops at the lie.
      const liar = new JSZip();
      liar.file("Safe/liar.md", new Uint8Array(16 * 1024 * 1024));
      const liarBytes = new Uint8Array(await liar.generateAsync({ type: "uint8array", compression: "DEFLATE" }));
      patchDeclaredSize(liarBytes, 10);
      const lied = await importZip(server, learner, notebookId, liarBytes);
      expect(lied.status).toBe(400);
      expect(lied.body.errors.file).toBe('Failed to import file: the entry "Safe/liar.md" inflates to more than it declares');

      const traversal = await makeZip({ "Safe/a.md": "a", "../../etc/evil.md": "evil" });
      const escaped = await importZip(server, learner, notebookId, traversal);
      expect(escaped.status).toBe(400);
      expect(escaped.body.errors.file).toBe('Failed to import file: the entry "../../etc/evil.md" points outside the archive');

      const deep = await importZip(server, learner, notebookId, await makeZip({ [`${"d/".repeat(150)}x.md`]: "deep" }));
      expect(deep.body.errors.file).toBe("Failed to import file: the zip nests folders deeper than 100 levels");

      const good = await makeZip({ "Safe/a.md": "a", "Safe/b.md": "b" });
      const damaged = good.slice(0, good.length - 30);
      const broken = await importZip(server, learner, notebookId, damaged);
      expect(broken.status).toBe(400);
      expect(broken.body.errors.file).toStartWith("Failed to import file: the file is not a zip archive or it is damaged");

      const notZip = await importZip(server, learner, notebookId, good, "vault.txt");
      expect(notZip.status).toBe(400);
      expect(notZip.body.errors).toEqual({ file: "must be a .zip file" });

      expect(await treeOf(server, ids.Safe)).toEqual(before);
    });

    test("round trip: export then import into an empty notebook gives back the tree, titles, details, links and images", async () => {
      const learner = await server.client().loginAs("old_learner");
      const ids = await injectNotes(learner, [
        { Title: "Languages" },
        { Title: "Español", "Parent Title": "Languages", Details: "# Heading inside\n\n**bold** text" },
        { Title: "Verbos: ser/estar", "Parent Title": "Español", Details: "two verbs" },
        { Title: "Sustantivos", "Parent Title": "Español" },
        { Title: "日本語 🎌", "Parent Title": "Languages", Details: "Japanese" },
        { Title: "Sustantivos", "Parent Title": "日本語 🎌", Details: "same title elsewhere" },
        { Title: "C#", "Parent Title": "Languages", Details: "# C#\n\nstarts with its own title" },
        { Title: '.NET: [core] ^2 | "quoted"', "Parent Title": "Languages" },
      ]);
      const notebookId = await notebookOf(learner, ids.Languages);
      expect(
        (await learner.post(`/api/links/create/${ids["日本語 🎌"]}/${ids["Verbos: ser/estar"]}`, { linkType: "similar to" })).status,
      ).toBe(200);
      expect(
        (await learner.post(`/api/links/create/${ids["Verbos: ser/estar"]}/${ids.Languages}`, { linkType: "an instance of" })).status,
      ).toBe(200);
      await uploadImage(learner, ids.Español, makePng(5, 5));
      await uploadImage(learner, ids["Verbos: ser/estar"], makePng(2, 7, [0, 0, 255]));
      const form = new FormData();
      form.append("url", "https://example.org/a: b?c=d#e");
      expect(
        (
          await fetch(`${server.url}/api/notes/${ids["C#"]}`, {
            method: "PATCH",
            body: form,
            headers: { cookie: `engram_session=${learner.sessionCookie}` },
          })
        ).status,
      ).toBe(200);
      await sqlRun(server, sql`UPDATE notes SET wikidata_id = 'Q42' WHERE id = ${ids.Español}`);
      const original = await treeOf(server, ids.Languages);
      expect(JSON.stringify(original)).toContain('"url":"https://example.org/a: b?c=d#e"');
      expect(JSON.stringify(original)).toContain('"wikidataId":"Q42"');

      const { bytes } = await exportZip(server, learner, notebookId);
      const copy = await newNotebook(learner, "Languages");
      const result = await importZip(server, learner, copy.notebookId, bytes as Uint8Array<ArrayBuffer>);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ created: 7, updated: 0, links: 2, images: 2, attachments: 0, skipped: [] });
      expect(await treeOf(server, copy.headId)).toEqual(original);
    });
  });
});

describe("bodies sent without a Content-Length", () => {
  const server = useTestServer();

  // The server takes bodies up to 101 MiB (a vault); a chunked body to a route with a small limit
  // is refused as soon as it passes that limit, not read whole.
  test("are refused at their route's limit", async () => {
    const learner = await server.client().loginAs("old_learner");
    let sent = 0;
    const chunk = new TextEncoder().encode(`{"newTitle": "${"x".repeat(60_000)}`);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 40 * 1024 * 1024) controller.close();
        else {
          sent += chunk.byteLength;
          controller.enqueue(chunk);
        }
      },
    });
    const response = await fetch(`${server.url}/api/notebooks/create`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", cookie: `engram_session=${learner.sessionCookie}` },
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(sent).toBeLessThan(40 * 1024 * 1024);
  });
});

describe("Obsidian import with an AI provider", () => {
  const server = useTestServer({ OPENAI_API_KEY: "test-key" });

  test("embeddings of the new and changed notes are queued, as for any edit", async () => {
    const learner = await server.client().loginAs("old_learner");
    const ids = await injectNotes(learner, [{ Title: "Head" }]);
    await sqlRun(server, sql`DELETE FROM jobs`);
    const notebookId = (await learner.get(`/api/notes/${ids.Head}`)).body.notebook.id;
    const result = await importZip(
      server,
      learner,
      notebookId,
      await makeZip({ "Head/__index.md": "Head text", "Head/A.md": "a", "Head/B/C.md": "c" }),
    );
    expect(result.body).toMatchObject({ created: 3, updated: 1 });
    await relayOutboxes(server.ctx);
    const queued = (await sqlRows<{ payload: string }>(server, sql`SELECT payload FROM jobs WHERE kind = 'embed-note'`)).map(
      (job) => JSON.parse(job.payload).noteId as number,
    );
    const tree = await sqlRows<{ id: number }>(server, sql`SELECT id FROM notes WHERE notebook_id = ${notebookId}`);
    expect(queued.sort()).toEqual(tree.map((row) => row.id).sort());
  });
});

/** Rewrites every declared uncompressed size in a zip (local and central headers) to `size`. */
function patchDeclaredSize(zip: Uint8Array, size: number) {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  for (let i = 0; i + 4 <= zip.length; i++) {
    const signature = view.getUint32(i, true);
    if (signature === 0x04034b50) view.setUint32(i + 22, size, true);
    else if (signature === 0x02014b50) view.setUint32(i + 24, size, true);
  }
}
