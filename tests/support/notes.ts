import type { HttpClient } from "./server";

/** A note to inject: its title, details and parent (by title). */
export type NoteTestRow = { Title: string; Details?: string; "Parent Title"?: string };

/** Creates notes through the inject_notes hook; answers {title: id}, keyed by the titles given. */
export async function injectNotes<const Rows extends readonly NoteTestRow[]>(
  client: HttpClient,
  rows: Rows,
  externalIdentifier = "",
): Promise<Record<Rows[number]["Title"], number>> {
  const result = await client.post("/api/testability/inject_notes", { externalIdentifier, circleName: null, noteTestData: rows });
  if (result.status !== 200) throw new Error(`inject_notes failed: ${result.status} ${result.text}`);
  return result.body;
}

/** The titles of a note's children, in order (all of them: the realm's first page, then the next pages). */
export async function childTitles(client: HttpClient, noteId: number): Promise<string[]> {
  const realm = (await client.get(`/api/notes/${noteId}`)).body;
  const children = [...realm.children];
  for (let after = realm.moreChildrenAfter; after !== undefined; ) {
    const page = (await client.get(`/api/notes/${noteId}/children?after=${after}&limit=200`)).body;
    children.push(...page.children);
    after = page.moreChildrenAfter;
  }
  return children.map((c: { noteTopology: { titleOrPredicate: string } }) => c.noteTopology.titleOrPredicate);
}
