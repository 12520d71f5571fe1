import type { MemoryTrackerJson } from "../../src/services/memory/trackers";
import type { HttpClient } from "./server";

/** "Day D, hour H" of the reference's tests: 1976-06-(1+D)T(H):00Z. */
export function dayHour(day: number, hour = 8): string {
  return new Date(Date.UTC(1976, 5, 1 + day, hour)).toISOString();
}

export async function travelTo(client: HttpClient, day: number, hour = 8) {
  const result = await client.post("/api/testability/time_travel", { travel_to: JSON.stringify(dayHour(day, hour)) });
  if (result.status !== 200) throw new Error(`time travel failed: ${result.status}`);
}

export async function assimilatingTitles(client: HttpClient): Promise<string[]> {
  const result = await client.get("/api/assimilation/assimilating?timezone=UTC");
  return result.body.map((n: { noteTopology: { titleOrPredicate: string } }) => n.noteTopology.titleOrPredicate);
}

export async function assimilate(client: HttpClient, noteId: number, skipMemoryTracking = false) {
  const result = await client.post("/api/assimilation", { noteId, skipMemoryTracking });
  if (result.status !== 200) throw new Error(`assimilate failed: ${result.status} ${result.text}`);
  return result.body as MemoryTrackerJson[];
}

/** Titles of the notes due for recall now (or N days ahead). */
export async function recallingTitles(client: HttpClient, dueInDays = 0): Promise<string[]> {
  const list = (await client.get(`/api/recalls/recalling?timezone=UTC&dueindays=${dueInDays}`)).body;
  const titles: string[] = [];
  for (const item of list.toRepeat) {
    const tracker = (await client.get(`/api/memory-trackers/${item.memoryTrackerId}`)).body;
    titles.push(`${tracker.note.noteTopology.titleOrPredicate}${item.spelling ? " (spelling)" : ""}`);
  }
  return titles;
}
