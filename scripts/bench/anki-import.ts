/**
 * Measures Anki deck imports against the real server (its own process): the hostile deck that
 * once stalled the server (notes.flds generated as a 20 MB zeroblob, 3 rows), then a generated
 * current (anki21b) deck of many notes with HTML fields, math and a review history. While each
 * import runs, a healthcheck is asked again and again: its slowest answer shows whether the
 * import held up the server (the deck is read in a worker process). Prints wall times, the
 * healthcheck's latencies and the server's resident memory (VmRSS before, VmHWM peak, from /proc).
 *
 *   bun scripts/bench/anki-import.ts [notes=5000]
 */
import { readFileSync } from "node:fs";
import { ankiPackage, type FixtureNote, hostileCollection } from "../../tests/support/anki";
import { makeZip } from "../../tests/support/vaults";
import { signIn, startEngram, stopAllServers } from "./harness";

const NOTES = Number(process.argv[2] ?? 5000);
const DAY_MS = 86_400_000;

function memory(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rssMiB: kb("VmRSS") / 1024, peakMiB: kb("VmHWM") / 1024 };
}

/** A deck of `count` notes in 20 decks: HTML fields with a table and math, each card reviewed 8 times. */
function bigDeck(count: number): Promise<Uint8Array<ArrayBuffer>> {
  const crt = Math.floor((Date.now() - 400 * DAY_MS) / 1000);
  const notes: FixtureNote[] = [];
  for (let i = 0; i < count; i++) {
    const id = 1000 + i;
    notes.push({
      id,
      type: i % 10 === 0 ? "Cloze" : "Basic",
      deck: i % 2 ? "Languages::Spanish" : "Science",
      fields:
        i % 10 === 0
          ? [`Fact {{c1::${i}::number}} is <b>bold</b> and \\(x_${i}\\)`, "extra"]
          : [
              `<div>Question ${i} with <i>style</i></div>`,
              `<style>.card{color:red}</style><div>Answer ${i}: ${"some words ".repeat(20)}</div><table><tr><td>a</td><td>b</td></tr></table>`,
            ],
      tags: "bench",
      cards: [
        {
          id: id * 10,
          type: 2,
          queue: 2,
          due: 400 + (i % 30),
          ivl: 20,
          reps: 8,
          reviews: Array.from({ length: 8 }, (_, r) => ({
            at: (crt + (300 + r * 10) * 86_400) * 1000 + i,
            ease: r === 3 ? 1 : 3,
            ivl: r * 3,
            type: 1,
          })),
        },
      ],
    });
  }
  return ankiPackage({ crt, reviewDue: 0, notes, creationOffset: 0, localOffset: 0 }, "anki21b");
}

async function main() {
  const server = await startEngram();
  try {
    const cookie = await signIn(server);
    const importing = async (label: string, bytes: Uint8Array<ArrayBuffer>) => {
      const before = memory(server.pid);
      const form = new FormData();
      form.append("file", new File([bytes], `${label}.apkg`));
      form.append("withReviewState", "true");
      const latencies: number[] = [];
      let done = false;
      const probing = (async () => {
        while (!done) {
          const started = performance.now();
          await fetch(`${server.url}/api/healthcheck`);
          latencies.push(performance.now() - started);
          await Bun.sleep(10);
        }
      })();
      const started = performance.now();
      const response = await fetch(`${server.url}/api/notebooks/anki`, { method: "POST", headers: { cookie }, body: form });
      const body = (await response.json()) as Record<string, unknown>;
      const ms = performance.now() - started;
      done = true;
      await probing;
      const after = memory(server.pid);
      latencies.sort((a, b) => a - b);
      const summary =
        response.status === 200
          ? JSON.stringify({ created: body.created, trackers: body.trackers, reviews: body.reviews })
          : `${response.status} ${JSON.stringify((body.errors as Record<string, string> | undefined)?.file)}`;
      console.log(`${label}: ${(bytes.byteLength / 1024).toFixed(0)} KiB, ${ms.toFixed(0)} ms, ${summary}`);
      console.log(
        `  healthchecks meanwhile: ${latencies.length}, median ${latencies[Math.floor(latencies.length / 2)]?.toFixed(1)} ms, slowest ${latencies.at(-1)?.toFixed(1)} ms`,
      );
      console.log(
        `  server memory: RSS before ${before.rssMiB.toFixed(0)} MiB, after ${after.rssMiB.toFixed(0)} MiB, peak so far ${after.peakMiB.toFixed(0)} MiB`,
      );
    };
    await importing(
      "hostile (generated 20 MB zeroblob flds, 3 rows)",
      await makeZip({ "collection.anki2": hostileCollection("generated column") }),
    );
    await importing(`generated anki21b deck of ${NOTES} notes, ${NOTES * 8} reviews`, await bigDeck(NOTES));
  } finally {
    await server.stop();
    await stopAllServers();
  }
}

await main();
