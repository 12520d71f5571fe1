import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { NothingYet } from "../lib/getting-started";
import { useElementId } from "../lib/island-id";
import { assimilatingQuery, assimilationCountQuery, setAssimilateBadge } from "../lib/learning-queries";
import type { NoteJson } from "../lib/notes-queries";
import type { RecallSettingField } from "../lib/recall-settings-form";
import { confirmPopup } from "../lib/ui-store";
import { AssimilationNote } from "./AssimilationNote";
import { useAssimilation } from "./use-assimilation";

/** "Assimilating: A/P" (A assimilated today, P = A + notes left today); a click shows daily and total progress. */
function ProgressLine({
  assimilated,
  remaining,
  totalUnassimilated,
}: {
  assimilated: number;
  remaining: number;
  totalUnassimilated?: number;
}) {
  const [open, setOpen] = useState(false);
  const detailsId = useElementId("progress-details");
  const planned = assimilated + remaining;
  return (
    <div className="assimilation-progress">
      <button
        type="button"
        className="assimilation-progress-button"
        aria-expanded={open}
        aria-controls={detailsId}
        onClick={() => setOpen((o) => !o)}
      >
        <span>
          Assimilating: {assimilated}/{planned}
        </span>
        <progress value={assimilated} max={Math.max(planned, 1)} aria-hidden="true" />
      </button>
      <div id={detailsId} className="assimilation-progress-details" hidden={!open}>
        <p>
          Daily Progress: {assimilated} / {planned}
        </p>
        {totalUnassimilated !== undefined && (
          <p>
            Total Progress: {assimilated} / {totalUnassimilated + assimilated}
          </p>
        )}
      </div>
    </div>
  );
}

function DailyGoalReached({ assimilated }: { assimilated: number }) {
  return (
    <div className="assimilation-done card" role="status">
      <p className="assimilation-done-count">Assimilated {assimilated} notes today.</p>
      <p className="assimilation-done-message">
        <span aria-hidden="true">🎉 </span>Congratulations! You've achieved your daily assimilation goal!<span aria-hidden="true"> 🎯</span>
      </p>
    </div>
  );
}

/** Nothing assimilated today and nothing to assimilate (a new account, say): what the page is for, not congratulations. */
function NothingToAssimilate() {
  return (
    <NothingYet heading="No notes to assimilate">
      <p>
        Assimilate is where you learn new notes for the first time. The notes you add to your notebooks are offered here, a few each day;
        each one you keep comes back on the Recall page just before you would forget it.
      </p>
      <p>Start with a notebook and add some notes to it.</p>
    </NothingYet>
  );
}

/** One note's two choices; each button can be used once per note (the note changes afterwards). */
function AssimilationStep({ note, focusOnShow, onActed }: { note: NoteJson; focusOnShow: boolean; onActed: () => void }) {
  const { keep, skip, reloadList } = useAssimilation();
  const [acting, setActing] = useState<"keep" | "skip">();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [focusAtMount] = useState(focusOnShow);
  useEffect(() => {
    // After a choice the buttons are gone: keyboard users continue from the next note's title.
    if (focusAtMount) headingRef.current?.focus();
  }, [focusAtMount]);

  async function act(choice: "keep" | "skip") {
    if (acting) return;
    if (choice === "skip" && !(await confirmPopup("Confirm to hide this note from reviewing in the future?"))) return;
    setActing(choice);
    onActed();
    try {
      await (choice === "keep" ? keep(note.id) : skip(note.id));
    } catch {
      // The API client has shown the error; the list may have changed elsewhere, so read it again.
      setActing(undefined);
      void reloadList();
    }
  }

  const onRecallSettingSaved = (field: RecallSettingField) => {
    // A level decides the order, skipping decides whether the note is offered at all.
    if (field === "level" || field === "skipMemoryTracking") void reloadList();
  };

  return (
    <>
      <AssimilationNote note={note} headingRef={headingRef} onRecallSettingSaved={onRecallSettingSaved} />
      {/* biome-ignore lint/a11y/useSemanticElements: a labelled group of two buttons; a fieldset would need a visible legend. */}
      <div className="assimilation-buttons" role="group" aria-label="assimilation choices" aria-busy={acting ? true : undefined}>
        <button type="button" className="button primary" disabled={acting !== undefined} onClick={() => act("keep")}>
          {acting === "keep" ? "Keeping..." : "Keep for repetition"}
        </button>
        <button type="button" className="button" disabled={acting !== undefined} onClick={() => act("skip")}>
          {acting === "skip" ? "Skipping..." : "Skip repetition"}
        </button>
      </div>
    </>
  );
}

/**
 * /d/assimilate: today's notes to assimilate, one at a time, with the day's progress; when none
 * are left, the congratulations, or with no work done today, what the page is for. The
 * Assimilate menu badge always shows the list's length.
 */
export default function Assimilate() {
  const queryClient = useQueryClient();
  const list = useQuery(assimilatingQuery());
  const { data: count } = useQuery(assimilationCountQuery());
  const [acted, setActed] = useState(false);
  const notes = list.data;
  useEffect(() => {
    if (notes) setAssimilateBadge(queryClient, notes.length);
  }, [notes, queryClient]);

  if (list.isPending) return <p className="muted">Loading...</p>;
  if (!notes) {
    return (
      <div className="assimilation-page">
        <p className="field-error" role="alert">
          Today's notes could not be loaded.
        </p>
        <button type="button" className="button" onClick={() => list.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  const assimilated = count?.assimilatedCountOfTheDay ?? 0;
  const current = notes[0];
  return (
    <div className="assimilation-page">
      {(current || assimilated > 0) && (
        <ProgressLine assimilated={assimilated} remaining={notes.length} totalUnassimilated={count?.totalUnassimilatedCount} />
      )}
      {current ? (
        <AssimilationStep key={current.id} note={current} focusOnShow={acted} onActed={() => setActed(true)} />
      ) : assimilated > 0 ? (
        <DailyGoalReached assimilated={assimilated} />
      ) : (
        <NothingToAssimilate />
      )}
    </div>
  );
}
