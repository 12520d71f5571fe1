import { useEffect, useState } from "react";
import { useLocalDateText } from "../lib/dates";
import { useNoteChildren, useSentinel } from "../lib/note-children";
import { noteTitleText } from "../lib/note-title";
import type { NoteJson, NoteRealmJson } from "../lib/notes-queries";
import { notePath } from "../lib/notes-queries";

/** Spec 9: the recent-update colour fades from green-ish to grey over 15 hours. */
export const RECENT_UPDATE_FADE_HOURS = 15;

function updateColour(updatedAt: string, now: number): string {
  const hours = Math.max(0, (now - Date.parse(updatedAt)) / 3_600_000);
  const fresh = Math.max(0, 1 - hours / RECENT_UPDATE_FADE_HOURS);
  // From rgb(21, 128, 61) (fresh green) to rgb(102, 112, 133) (grey): both ends, and every mix
  // between them, stay readable on white (contrast above 4.5:1).
  const mix = (from: number, to: number) => Math.round(to + (from - to) * fresh);
  return `rgb(${mix(21, 102)}, ${mix(128, 112)}, ${mix(61, 133)})`;
}

/** "Created: date" and "Last updated: date", the latter coloured by how recent it is. */
export function RecentUpdateIndicator({ note }: { note: NoteJson }) {
  const created = useLocalDateText(note.createdAt);
  const updated = useLocalDateText(note.updatedAt);
  const [now, setNow] = useState<number | undefined>(undefined);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="note-dates">
      <span>
        Created: <time dateTime={note.createdAt}>{created}</time>
      </span>
      <span className="note-updated" style={now === undefined ? undefined : { color: updateColour(note.updatedAt, now) }}>
        Last updated: <time dateTime={note.updatedAt}>{updated}</time>
      </span>
    </div>
  );
}

/**
 * The children as cards in two columns; collapsed, one card shows how many there are. The server
 * renders the realm's first page of children; the rest load as the reader scrolls to the end of the
 * list (or presses "Load more children", for keyboards and browsers without IntersectionObserver).
 */
export function ChildCards({ realm }: { realm: NoteRealmJson }) {
  const [collapsed, setCollapsed] = useState(false);
  const { children: notes, total, hasMore, loading, failed, loadMore } = useNoteChildren(realm);
  const sentinel = useSentinel<HTMLDivElement>(loadMore, hasMore && !collapsed && !failed, notes.length + (loading ? 0.5 : 0));
  if (notes.length === 0) return null;
  return (
    <section className="child-cards" aria-label="Children">
      <div className="child-cards-header">
        <button
          type="button"
          className="button small"
          onClick={() => setCollapsed((c) => !c)}
          aria-label={collapsed ? "expand children" : "collapse children"}
          title={collapsed ? "expand children" : "collapse children"}
        >
          {collapsed ? "▸" : "▾"} {collapsed ? "expand children" : "collapse children"}
        </button>
      </div>
      {collapsed ? (
        <div className="card child-card collapsed-children">
          {total} {total === 1 ? "child" : "children"}
        </div>
      ) : (
        <>
          <ul className="child-card-grid">
            {notes.map((child) => (
              <li key={child.id} className="card child-card">
                <a href={notePath(child.id)} className="child-card-title" dir="auto">
                  {noteTitleText(child.noteTopology)}
                </a>
                {child.noteTopology.shortDetails && (
                  <p className="muted" dir="auto">
                    {child.noteTopology.shortDetails}
                  </p>
                )}
                {!!child.childrenCount && (
                  <span className="child-count">
                    {child.childrenCount} {child.childrenCount === 1 ? "child" : "children"}
                  </span>
                )}
              </li>
            ))}
          </ul>
          {hasMore && (
            <div ref={sentinel} className="child-cards-more">
              {/* Not disabled while loading: a disabled button would lose the keyboard focus. */}
              <button type="button" className="button small" onClick={loadMore} aria-disabled={loading} aria-busy={loading}>
                {loading ? "Loading children..." : failed ? "Could not load more children: try again" : "Load more children"}
              </button>
              <span className="muted" role="status">{`Showing ${notes.length} of ${total} children`}</span>
            </div>
          )}
        </>
      )}
    </section>
  );
}
