import { describe, expect, test } from "bun:test";
import { useTestServer } from "../support/server";
import { importZip, makeZip, unzip } from "../support/vaults";

describe("a note's properties (front matter) on the note page", () => {
  const server = useTestServer();

  test("an Obsidian note's front matter shows as properties, not text, and goes back out as front matter", async () => {
    const learner = await server.client().loginAs("old_learner");
    const created = await learner.post("/api/notebooks/create", { newTitle: "Biology" });
    const headId = created.body.noteId as number;
    const notebookId = (await learner.get(`/api/notes/${headId}`)).body.notebook.id as number;
    const vault = await makeZip({
      "Biology/Cell.md": "---\naliases: [cytes]\nsource: textbook\n---\n\nThe unit of life, $n \\approx 10^{13}$ of them.",
    });
    expect((await importZip(server, learner, notebookId, vault)).status).toBe(200);
    const cellId = (await learner.get(`/api/notes/${headId}`)).body.children[0].id as number;

    const page = await (await fetch(`${server.url}/n${cellId}`, { headers: { cookie: `engram_session=${learner.sessionCookie}` } })).text();
    const html = page.replace(/<script[^>]*>[\s\S]*?<\/script>/g, "");
    expect(html).toContain('<th scope="row" dir="auto">aliases</th><td dir="auto">cytes</td>');
    expect(html).toContain('<th scope="row" dir="auto">source</th><td dir="auto">textbook</td>');
    expect(html).not.toContain("source: textbook");
    expect(html).toContain('<annotation encoding="application/x-tex">n \\approx 10^{13}</annotation>');

    const exported = await unzip(
      new Uint8Array(
        await (
          await fetch(`${server.url}/api/notebooks/${notebookId}/obsidian`, {
            headers: { cookie: `engram_session=${learner.sessionCookie}` },
          })
        ).arrayBuffer(),
      ),
    );
    const cell = [...exported.entries()].find(([path]) => path.endsWith("Cell.md"))![1].text;
    expect(cell).toContain("aliases: [cytes]\nsource: textbook\n");
    expect(cell).toContain("The unit of life, $n \\approx 10^{13}$ of them.");
  });
});
