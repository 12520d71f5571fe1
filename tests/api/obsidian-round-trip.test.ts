/**
 * A vault laid out as Obsidian's Help vault (tests/support/help-vault.ts) imported, exported,
 * imported again and exported again: every file its notes embed is kept and written back, every
 * embed stays where it was with its size, every link and embed of the export resolves when the
 * export's top folder is opened as a vault (checked by tests/support/obsidian-links.ts, not by
 * Engram's own link code), and the second export is the first.
 */
import { describe, expect, test } from "bun:test";
import { HELP_VAULT_FILES, HELP_VAULT_NOTES, helpVaultFiles } from "../support/help-vault";
import { brokenLinks, linksOf, obsidianResolve } from "../support/obsidian-links";
import { type HttpClient, useTestServer } from "../support/server";
import { exportZip, importZip, makeZip, type TreeNode, titlesOf, treeOf, unzip } from "../support/vaults";

/** The files of an export below its top folder, as text (Markdown) or bytes, the notes' own ids and dates left out. */
async function vaultOf(bytes: Uint8Array, top: string) {
  const files = await unzip(bytes);
  const texts = new Map<string, string>();
  const binaries = new Map<string, Uint8Array>();
  for (const [path, file] of files) {
    expect(path.startsWith(`${top}/`)).toBe(true);
    const inVault = path.slice(top.length + 1);
    if (path.endsWith(".md")) texts.set(inVault, file.text.replace(/^(note_id|created_at|updated_at): .*\n/gm, ""));
    else binaries.set(inVault, file.bytes);
  }
  return { texts, binaries };
}

describe("an Obsidian Help-like vault, round trip", () => {
  const server = useTestServer();

  async function newNotebook(client: HttpClient, title: string) {
    const { noteId } = (await client.post("/api/notebooks/create", { newTitle: title })).body;
    return { headId: noteId as number, notebookId: (await client.get(`/api/notes/${noteId}`)).body.notebook.id as number };
  }

  test("the fixture itself has every embed and link resolving where Obsidian would open it (its zip root)", () => {
    const vault = new Map<string, string>(
      Object.entries(helpVaultFiles()).map(([path, content]) => [path, typeof content === "string" ? content : ""]),
    );
    expect(brokenLinks(vault)).toEqual([]);
  });

  test("import keeps every embedded file and every embed where it was; links in tables and with the vault's folder resolve", async () => {
    const learner = await server.client().loginAs("old_learner");
    const { headId, notebookId } = await newNotebook(learner, "Help");
    const imported = await importZip(server, learner, notebookId, await makeZip(helpVaultFiles()));
    expect(imported.status).toBe(200);
    const embedded = Object.keys(HELP_VAULT_FILES).filter((path) => !path.endsWith(".canvas"));
    expect(imported.body).toMatchObject({ created: 13, images: 0, attachments: embedded.length });
    expect(imported.body.skipped).toEqual([
      { path: "Obsidian Help/.obsidian/", reason: "hidden or system file" },
      { path: "Obsidian Help/Attachments/unused.canvas", reason: "not a Markdown note, and no note embeds it" },
    ]);

    const tree = await treeOf(server, headId);
    expect(titlesOf(tree)).toEqual({
      Help: [
        "Home",
        { "Getting started": ["Create a vault", "Link notes"] },
        { "User interface": ["Workspace"] },
        { Plugins: ["Templates", "Audio recorder"] },
        { "Files and folders": ["Accepted file formats"] },
        { "Über Obsidian": ["Großartige Funktionen"] },
      ],
    });
    const note = (title: string) => {
      const find = (node: typeof tree): typeof tree | undefined =>
        node.title === title ? node : node.children.map(find).find((found) => found !== undefined);
      return find(tree)!;
    };
    // The text is the vault's: embeds in place with their size, callouts whole, the table's escaped pipes.
    expect(note("Home").details).toContain("---\naliases:\n  - Start here\ncssclasses: home\n---\n\n![[Obsidian logo.svg|200]]");
    expect(note("Home").details).toContain("> [!tip] Where things are\n> ![[link-preview.png|300]]\n> Links show a preview");
    expect(note("Create a vault").details).toBe(HELP_VAULT_NOTES["Obsidian Help/Getting started/Create a vault.md"]!);
    expect(note("Workspace").details).toContain(
      "## Interface\n\n![[Workspace layout.jpg|600x400]]\n\n> [!note]\n> ![[Attachments/image.png]]",
    );
    // Links in tables, with the vault's folder in front, to a heading: each a "related to" link.
    expect(note("Home").links.sort()).toEqual(["related to → Create a vault", "related to → Link notes", "related to → Templates"].sort());
    expect(note("Create a vault").links).toEqual(["related to → Link notes"]);
    expect(note("Link notes").links.sort()).toEqual(["related to → Create a vault", "related to → Workspace"]);
    expect(note("Templates").links.sort()).toEqual(["related to → Audio recorder", "related to → Home"]);
    expect(note("Großartige Funktionen").links).toEqual(["related to → Home"]);
  });

  test("export writes every embedded file back and every link resolves in the exported vault; a second round trip changes nothing", async () => {
    const learner = await server.client().loginAs("old_learner");
    const first = await newNotebook(learner, "Help");
    await importZip(server, learner, first.notebookId, await makeZip(helpVaultFiles()));
    const exported = await exportZip(server, learner, first.notebookId);
    expect(exported.response.status).toBe(200);
    const vault = await vaultOf(exported.bytes, "Help");

    // Every embedded file, byte for byte, where it was below the vault's folder.
    for (const [path, content] of Object.entries(HELP_VAULT_FILES)) {
      if (path.endsWith(".canvas")) continue;
      expect({ path, bytes: vault.binaries.get(path.slice("Obsidian Help/".length)) }).toEqual({ path, bytes: content });
    }
    // Every link and embed resolves with the export's top folder opened as the vault, and with its parent.
    const files = new Map<string, string>([...vault.texts, ...[...vault.binaries.keys()].map((path) => [path, ""] as [string, string])]);
    expect(brokenLinks(files)).toEqual([]);
    const fromParent = new Map([...files].map(([path, content]) => [`Help/${path}`, content]));
    expect(brokenLinks(fromParent)).toEqual([]);
    const links = [...vault.texts].flatMap(([file, content]) => linksOf(content).map((link) => ({ file, ...link })));
    expect(links.length).toBeGreaterThan(30);

    // Embeds stay where they were, with size and anchor; the path-prefixed link names the note the vault's way.
    const home = vault.texts.get("Home.md")!;
    expect(home).toContain(
      "# Home\n![[Obsidian logo.svg|200]]\n\nWelcome to the [[Create a vault|Help vault]]. Start with [[Templates|Templates]].",
    );
    expect(home).toContain("> [!tip] Where things are\n> ![[link-preview.png|300]]\n> Links show a preview");
    expect(home).toContain("| Vaults | [[Create a vault\\|making one]] |\n| Linking | [[Link notes\\|links]] and ![[icon.webp\\|16]] |");
    expect(vault.texts.get("Getting started/Create a vault.md")).toContain(
      "# Create a vault\nA vault is a folder on your file system.\n\n![[Workspace layout.jpg|600]]\n\nNext: [[Link notes#Internal links|link your notes]].",
    );
    expect(vault.texts.get("Getting started/Link notes.md")).toContain("[[Not a link]] inside code");
    expect(vault.texts.get("Getting started/Link notes.md")).toContain("![Preview](link-preview.png)");
    const funktionen = vault.texts.get("Über Obsidian/Großartige Funktionen.md")!;
    expect(funktionen).toContain("![[Über Obsidian/Bilder/image.png]] and ![[Attachments/image.png]]");
    expect(obsidianResolve([...files.keys()], "Über Obsidian/Bilder/image.png", "Über Obsidian/Großartige Funktionen.md")).toBe(
      "Über Obsidian/Bilder/image.png",
    );

    // Import the export into another notebook and export again: the same vault.
    const second = await newNotebook(learner, "Help");
    const reimported = await importZip(server, learner, second.notebookId, exported.bytes as Uint8Array<ArrayBuffer>);
    expect(reimported.body).toMatchObject({ created: 13, skipped: [] });
    // The same notes and links; the text now names its links as the export wrote them.
    const withoutText = (node: TreeNode): unknown => ({ ...node, details: undefined, children: node.children.map(withoutText) });
    expect(withoutText(await treeOf(server, second.headId))).toEqual(withoutText(await treeOf(server, first.headId)));
    const again = await vaultOf((await exportZip(server, learner, second.notebookId)).bytes, "Help");
    expect(again.texts).toEqual(vault.texts);
    expect(again.binaries).toEqual(vault.binaries);
  });
});
