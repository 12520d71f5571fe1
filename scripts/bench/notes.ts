/**
 * The note bench: a notebook of 10,000 notes in which one note has 1,000 children.
 *
 *   GET /api/notes/{big}      the NoteRealm of the note with 1,000 children
 *   GET /n{big}               its server-rendered note page
 *   GET /api/notes/{leaf}     a note with no children deep in the big notebook, and one at the same
 *                             depth in a notebook of 3 notes: loading one level must not grow with the notebook
 */
import { type Bench, type ServerHandle, load, signIn, startEngram } from "./harness";

const NOTEBOOK_SIZE = 10_000;
const BIG_CHILDREN = 1_000;
const GROUP_SIZE = 100;

async function inject(server: ServerHandle, cookie: string, rows: Record<string, string>[]): Promise<Record<string, number>> {
  const response = await fetch(`${server.url}/api/testability/inject_notes`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ externalIdentifier: "", circleName: null, noteTestData: rows }),
  });
  if (!response.ok) throw new Error(`inject_notes failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, number>;
}

/** Root, "Big" with 1,000 children, and groups of 100 notes until the notebook has 10,000 notes. */
function bigNotebook(): Record<string, string>[] {
  const rows: Record<string, string>[] = [{ Title: "Root" }, { Title: "Big", "Parent Title": "Root", Details: "The note with many children" }];
  for (let i = 0; i < BIG_CHILDREN; i++) rows.push({ Title: `Child ${i}`, "Parent Title": "Big", Details: `Details of child ${i}` });
  for (let group = 0; rows.length < NOTEBOOK_SIZE; group++) {
    rows.push({ Title: `Group ${group}`, "Parent Title": "Root" });
    for (let i = 0; i < GROUP_SIZE - 1 && rows.length < NOTEBOOK_SIZE; i++) {
      rows.push({ Title: `Group ${group} note ${i}`, "Parent Title": `Group ${group}`, Details: "Some details of a note" });
    }
  }
  return rows;
}

export const notes: Bench = {
  name: "notes",
  description: "note realm and note page for a note with 1,000 children in a notebook of 10,000 notes",
  async run({ reporter, settings, baselines }) {
    await baselines();
    const server = await startEngram();
    try {
      const cookie = await signIn(server, "old_learner");
      const big = await inject(server, cookie, bigNotebook());
      // Same depth as the big notebook's leaf (root → group → leaf), so only the notebook's size differs.
      const small = await inject(server, cookie, [
        { Title: "Small" },
        { Title: "Small group", "Parent Title": "Small" },
        { Title: "Small child", "Parent Title": "Small group" },
      ]);
      const check = await fetch(`${server.url}/api/notes/${big.Big}`, { headers: { cookie } });
      const children = ((await check.json()) as { children: unknown[] }).children.length;
      if (children !== BIG_CHILDREN) throw new Error(`expected ${BIG_CHILDREN} children, got ${children}`);

      reporter.section(`notes (notebook of ${NOTEBOOK_SIZE} notes)`);
      const headers = { cookie };
      const pid = server.pid;
      reporter.row(`GET /api/notes/{note with ${BIG_CHILDREN} children}`,
        await load({ url: `${server.url}/api/notes/${big.Big}`, headers, pid }, settings), { against: "bare", minRatio: 0.002 });
      reporter.row(`GET /n{note with ${BIG_CHILDREN} children} (SSR page)`,
        await load({ url: `${server.url}/n${big.Big}`, headers, pid }, settings), { against: "bare", minRatio: 0.0005 });
      const deepLeaf = await load({ url: `${server.url}/api/notes/${big["Group 50 note 7"]}`, headers, pid }, settings);
      reporter.row("GET /api/notes/{leaf in the 10,000-note notebook}", deepLeaf, { against: "sqlite", minRatio: 0.05 });
      const smallLeaf = await load({ url: `${server.url}/api/notes/${small["Small child"]}`, headers, pid }, settings);
      reporter.row("GET /api/notes/{leaf in a 3-note notebook}", smallLeaf, { against: "sqlite", minRatio: 0.05 });
      const growth = smallLeaf.rps / deepLeaf.rps;
      console.log(`  one level of a 10,000-note notebook vs a 3-note notebook: ${growth.toFixed(2)}× the cost (1.00 = no growth)`);
      reporter.row(`GET /n{leaf in the 10,000-note notebook} (SSR page)`,
        await load({ url: `${server.url}/n${big["Group 50 note 7"]}`, headers, pid }, settings), { against: "bare", minRatio: 0.01 });
    } finally {
      await server.stop();
    }
  },
};
