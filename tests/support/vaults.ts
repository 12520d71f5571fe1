/**
 * Helpers for Obsidian vault tests: zips built in the test, a real PNG, the import request as the
 * browser sends it, and a notebook's tree read from the database.
 */

import JSZip from "jszip";
import type { HttpClient, Json, TestServer } from "./server";

export { makePng } from "./png";

/** A zip of these files (in this order), deflated. */
export async function makeZip(files: Record<string, string | Uint8Array>): Promise<Uint8Array<ArrayBuffer>> {
  const zip = new JSZip();
  for (const [path, content] of Object.entries(files)) {
    if (path.endsWith("/")) zip.folder(path.slice(0, -1));
    else zip.file(path, content, { createFolders: false });
  }
  return (await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" })) as Uint8Array<ArrayBuffer>;
}

/** The files of a zip (folders left out), as text or bytes. */
export async function unzip(bytes: Uint8Array): Promise<Map<string, { text: string; bytes: Uint8Array }>> {
  const zip = await JSZip.loadAsync(bytes);
  const files = new Map<string, { text: string; bytes: Uint8Array }>();
  for (const file of Object.values(zip.files)) {
    if (file.dir) continue;
    const data = await file.async("uint8array");
    files.set(file.name, { bytes: data, text: new TextDecoder().decode(data) });
  }
  return files;
}

/** POST /api/notebooks/{id}/obsidian as the browser sends it (multipart, field "file"). */
export async function importZip(
  server: TestServer,
  client: HttpClient | undefined,
  notebookId: number,
  bytes: Uint8Array<ArrayBuffer>,
  name = "vault.zip",
) {
  const form = new FormData();
  form.append("file", new File([bytes], name, { type: "application/zip" }));
  const headers: Record<string, string> = client?.sessionCookie ? { cookie: `engram_session=${client.sessionCookie}` } : {};
  const response = await fetch(`${server.url}/api/notebooks/${notebookId}/obsidian`, { method: "POST", body: form, headers });
  const text = await response.text();
  let body: Json = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body };
}

/** GET /api/notebooks/{id}/obsidian: the response and its bytes. */
export async function exportZip(server: TestServer, client: HttpClient | undefined, notebookId: number) {
  const headers: Record<string, string> = client?.sessionCookie ? { cookie: `engram_session=${client.sessionCookie}` } : {};
  const response = await fetch(`${server.url}/api/notebooks/${notebookId}/obsidian`, { headers });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

export interface TreeNode {
  title: string;
  details: string;
  image?: string;
  url?: string;
  wikidataId?: string;
  links: string[];
  children: TreeNode[];
}

/**
 * The undeleted tree under a note, read through the stores (so on either database): titles,
 * details, image bytes (hex prefix and size), links "type → target".
 */
export async function treeOf(server: TestServer, noteId: number): Promise<TreeNode> {
  const { notes } = server.ctx.stores;
  const note = (await notes.noteById(noteId))!;
  const children = await notes.childrenOf(noteId);
  const [image] = note.imageId === null ? [] : await notes.imagesByIds([note.imageId]);
  const links = children.filter((child) => child.targetNoteId !== null);
  const targets = await notes.notesByIds(links.map((child) => child.targetNoteId!));
  const titleOf = (id: number) => targets.find((target) => target.id === id)!.title;
  return {
    title: note.title,
    details: note.details,
    ...(note.url ? { url: note.url } : {}),
    ...(note.wikidataId ? { wikidataId: note.wikidataId } : {}),
    ...(image ? { image: `${image.contentType} ${image.bytes.byteLength} ${Buffer.from(image.bytes).toString("base64").slice(-24)}` } : {}),
    links: links.map((child) => `${child.title} → ${titleOf(child.targetNoteId!)}`),
    children: await Promise.all(children.filter((child) => child.targetNoteId === null).map((child) => treeOf(server, child.id))),
  };
}

/** Only the titles of a tree, nested. */
export function titlesOf(tree: TreeNode): unknown {
  return tree.children.length ? { [tree.title]: tree.children.map(titlesOf) } : tree.title;
}
