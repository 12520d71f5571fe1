import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, call } from "../../lib/api";
import { useLocalDateText } from "../../lib/dates";
import { type MemoryTrackerJson, type NoteInfoJson, noteInfoQuery, refreshRecallCounters } from "../../lib/learning-queries";
import { confirmPopup } from "../../lib/ui-store";

/** Self-evaluation adjustment (spec 9): the forgetting-curve index moves by this much. */
const ADJUSTMENT = 5;

function NextRecall({ iso }: { iso: string }) {
  return <time dateTime={iso}>{useLocalDateText(iso)}</time>;
}

/**
 * The user's trackers of a note: type, repetitions, curve index and next recall, with the
 * self-evaluation buttons (−5 / +5) and "remove this note from review". A removed tracker stays
 * in the table with a notice (the server's note-info would no longer list it).
 */
export function MemoryTrackerTable({
  noteId,
  trackers,
  labelledBy,
}: {
  noteId: number;
  trackers: MemoryTrackerJson[];
  labelledBy: string;
}) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<number[]>([]);

  async function update(trackerId: number, request: () => Promise<MemoryTrackerJson>) {
    if (busy.includes(trackerId)) return;
    setBusy((ids) => [...ids, trackerId]);
    try {
      const updated = await request();
      queryClient.setQueryData(
        noteInfoQuery(noteId).queryKey,
        (old: NoteInfoJson | undefined) =>
          old && { ...old, memoryTrackers: old.memoryTrackers.map((t) => (t.id === updated.id ? updated : t)) },
      );
      refreshRecallCounters(queryClient);
    } catch {
      // The API client has shown the error; the row keeps its last known values.
    } finally {
      setBusy((ids) => ids.filter((id) => id !== trackerId));
    }
  }

  const selfEvaluate = (trackerId: number, adjustment: number) =>
    update(trackerId, () => call(api["memory-trackers"]({ memoryTracker: trackerId })["self-evaluate"].post({ adjustment })));

  async function remove(trackerId: number) {
    if (!(await confirmPopup("Confirm to hide this from reviewing in the future?"))) return;
    await update(trackerId, () => call(api["memory-trackers"]({ memoryTracker: trackerId }).remove.post()));
  }

  return (
    <div className="table-scroll">
      <table className="table memory-tracker-table" aria-labelledby={labelledBy}>
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">Repetition Count</th>
            <th scope="col">Forgetting Curve Index</th>
            <th scope="col">Next Recall</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {trackers.map((tracker) => {
            const type = tracker.spelling ? "spelling" : "normal";
            if (tracker.removedFromTracking) {
              return (
                <tr key={tracker.id} className="removed-tracker">
                  <td>{type}</td>
                  <td colSpan={4} role="status">
                    This memory tracker has been removed from tracking.
                  </td>
                </tr>
              );
            }
            const disabled = busy.includes(tracker.id);
            return (
              <tr key={tracker.id} aria-busy={disabled || undefined}>
                <td>{type}</td>
                <td>{tracker.repetitionCount}</td>
                <td>{tracker.forgettingCurveIndex}</td>
                <td>
                  <NextRecall iso={tracker.nextRecallAt} />
                </td>
                <td>
                  <div className="tracker-actions">
                    <button
                      type="button"
                      className="button small"
                      title="reduce next repeat interval"
                      aria-label="reduce next repeat interval"
                      disabled={disabled}
                      onClick={() => selfEvaluate(tracker.id, -ADJUSTMENT)}
                    >
                      −{ADJUSTMENT}
                    </button>
                    <button
                      type="button"
                      className="button small"
                      title="increase next repeat interval"
                      aria-label="increase next repeat interval"
                      disabled={disabled}
                      onClick={() => selfEvaluate(tracker.id, ADJUSTMENT)}
                    >
                      +{ADJUSTMENT}
                    </button>
                    <button
                      type="button"
                      className="button small danger"
                      title="remove this note from review"
                      aria-label="remove this note from review"
                      disabled={disabled}
                      onClick={() => remove(tracker.id)}
                    >
                      Remove
                    </button>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
