/**
 * Measures an Obsidian vault import: a generated vault of 1,000 notes in 20 folders,
 * each note with a paragraph and two wikilinks, about every other note embedding its own 20 KB image,
 * imported over HTTP into a fresh notebook of the real server (its own process), then imported
 * again (nothing changes) and exported. Prints wall times and the server's resident memory
 * (VmRSS before, VmHWM peak after, from /proc).
 *
 *   bun scripts/bench/obsidian-import.ts [notes=1000]
 */

import { readFileSync } from "node:fs";
import JSZip from "jszip";
import { signIn, startEngram, stopAllServers } from "./harness";

const NOTES = Number(process.argv[2] ?? 1000);
const FOLDERS = 20;
const IMAGE_BYTES = 20 * 1024;

function memory(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rssMiB: kb("VmRSS") / 1024, peakMiB: kb("VmHWM") / 1024 };
}

/** A PNG signature followed by incompressible bytes: stored like an upload, as big as a small photo. */
function fakePng(seed: number): Uint8Array {
  const bytes = new Uint8Array(IMAGE_BYTES);
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < bytes.length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    bytes[i] = x & 0xff;
  }
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 0);
  return bytes;
}

let imageCount = 0;

async function vault(): Promise<Uint8Array<ArrayBuffer>> {
  const zip = new JSZip();
  zip.file("Bench/__index.md", "# Bench\n\nA generated vault.\n");
  const perFolder = Math.ceil(NOTES / FOLDERS);
  let made = 0;
  for (let f = 0; f < FOLDERS && made < NOTES; f++) {
    zip.file(`Bench/Folder ${f}/__index.md`, `# Folder ${f}\n\nTopic number ${f}.\n`);
    made++;
    for (let n = 1; n < perFolder && made < NOTES; n++, made++) {
      const image = made % 2 === 0 ? `\n![[note ${f}-${n}.png]]\n` : "";
      if (image) imageCount++;
      if (image) zip.file(`Bench/Folder ${f}/attachments/note ${f}-${n}.png`, fakePng(made));
      const other = (k: number) => `note ${(f + k) % FOLDERS}-${((n + k) % (perFolder - 1)) + 1}`;
      zip.file(
        `Bench/Folder ${f}/note ${f}-${n}.md`,
        `---\ntags: [bench]\n---\n# note ${f}-${n}\n\n${"Some words about this note. ".repeat(20)}\n\nSee [[${other(1)}]] and [[${other(2)}|the other]].\n${image}`,
      );
    }
  }
  return (await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" })) as Uint8Array<ArrayBuffer>;
}

async function main() {
  const zipBytes = await vault();
  const server = await startEngram();
  try {
    const cookie = await signIn(server);
    const created = await fetch(`${server.url}/api/notebooks/create`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ newTitle: "Bench" }),
    });
    const { noteId } = (await created.json()) as { noteId: number };
    const notebookId = (
      (await (await fetch(`${server.url}/api/notes/${noteId}`, { headers: { cookie } })).json()) as { notebook: { id: number } }
    ).notebook.id;
    const post = async () => {
      const form = new FormData();
      form.append("file", new File([zipBytes], "bench.zip", { type: "application/zip" }));
      const started = performance.now();
      const response = await fetch(`${server.url}/api/notebooks/${notebookId}/obsidian`, {
        method: "POST",
        headers: { cookie },
        body: form,
      });
      const report = (await response.json()) as Record<string, unknown>;
      if (response.status !== 200) throw new Error(`import failed: ${response.status} ${JSON.stringify(report)}`);
      return { ms: performance.now() - started, report };
    };
    const before = memory(server.pid);
    const first = await post();
    const afterFirst = memory(server.pid);
    const second = await post();
    const startedExport = performance.now();
    const exported = await fetch(`${server.url}/api/notebooks/${notebookId}/obsidian`, { headers: { cookie } });
    const exportBytes = (await exported.arrayBuffer()).byteLength;
    const exportMs = performance.now() - startedExport;
    const after = memory(server.pid);
    const { skipped, ...counts } = first.report as { skipped: unknown[] };
    console.log(
      `vault: ${NOTES} notes, ${imageCount} images of ${IMAGE_BYTES / 1024} KB, zip ${(zipBytes.byteLength / 1048576).toFixed(1)} MiB`,
    );
    console.log(`first import:  ${first.ms.toFixed(0)} ms  ${JSON.stringify(counts)} skipped ${skipped.length}`);
    const { skipped: skipped2, ...counts2 } = second.report as { skipped: unknown[] };
    console.log(`second import: ${second.ms.toFixed(0)} ms  ${JSON.stringify(counts2)} skipped ${skipped2.length}`);
    console.log(`export:        ${exportMs.toFixed(0)} ms  zip ${(exportBytes / 1048576).toFixed(1)} MiB`);
    console.log(
      `server memory: RSS before ${before.rssMiB.toFixed(0)} MiB, peak during first import ${afterFirst.peakMiB.toFixed(0)} MiB, peak overall ${after.peakMiB.toFixed(0)} MiB, RSS after ${after.rssMiB.toFixed(0)} MiB`,
    );
  } finally {
    await server.stop();
    await stopAllServers();
  }
}

await main();
