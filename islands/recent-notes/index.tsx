import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useRef, useState } from "react";
import { useElementId } from "../lib/island-id";
import { type NoteRealmJson, notePath, recentNotesQuery } from "../lib/notes-queries";
import { LocalTime } from "../lib/dates";
import { RecentlyLearned, RecentlyReviewed } from "./tracker-tables";

const TABS = [
  { key: "added", label: "Recently Added/Updated" },
  { key: "learned", label: "Recently Learned" },
  { key: "reviewed", label: "Recently Reviewed" },
] as const;
type TabKey = (typeof TABS)[number]["key"];

function RecentlyAdded() {
  const { data: realms = [], isPending } = useQuery(recentNotesQuery());
  if (isPending) return <p className="muted">Loading...</p>;
  if (realms.length === 0) return <p className="empty-state">No notes yet.</p>;
  return (
    <ul className="recent-list">
      {realms.map((realm: NoteRealmJson) => (
        <li key={realm.id} className="recent-item">
          <a className="recent-item-title" href={notePath(realm.id)}>{realm.note.noteTopology.titleOrPredicate}</a>
          {realm.notebook && (
            <span className="recent-item-notebook">
              <span className="visually-hidden">Notebook: </span>{realm.notebook.title}
            </span>
          )}
          <span className="recent-item-time">
            <span className="visually-hidden">Updated </span><LocalTime iso={realm.note.updatedAt} />
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The /d/recent page's tabs: Recently Added/Updated, Recently Learned, Recently Reviewed (WAI-ARIA tabs). */
export default function RecentNotes() {
  const [selected, setSelected] = useState<TabKey>("added");
  const tabRefs = useRef<Partial<Record<TabKey, HTMLButtonElement | null>>>({});
  const baseId = useElementId("recent");
  const tabId = (key: TabKey) => `${baseId}-tab-${key}`;
  const panelId = (key: TabKey) => `${baseId}-panel-${key}`;

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = TABS.findIndex((t) => t.key === selected);
    const next = {
      ArrowRight: (index + 1) % TABS.length,
      ArrowLeft: (index - 1 + TABS.length) % TABS.length,
      Home: 0,
      End: TABS.length - 1,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const key = TABS[next]!.key;
    setSelected(key);
    tabRefs.current[key]?.focus();
  }

  return (
    <div className="recent-notes">
      <div className="tabs" role="tablist" aria-label="Recent notes" onKeyDown={onKeyDown}>
        {TABS.map((tab) => (
          <button key={tab.key} type="button" role="tab" id={tabId(tab.key)} aria-controls={panelId(tab.key)}
            aria-selected={selected === tab.key} tabIndex={selected === tab.key ? 0 : -1}
            className={`tab${selected === tab.key ? " active" : ""}`}
            ref={(element) => { tabRefs.current[tab.key] = element; }}
            onClick={() => setSelected(tab.key)}>
            {tab.label}
          </button>
        ))}
      </div>
      {TABS.map((tab) => (
        <div key={tab.key} role="tabpanel" id={panelId(tab.key)} aria-labelledby={tabId(tab.key)}
          className="tab-panel" hidden={selected !== tab.key} tabIndex={0}>
          {selected === tab.key && tab.key === "added" && <RecentlyAdded />}
          {selected === tab.key && tab.key === "learned" && <RecentlyLearned />}
          {selected === tab.key && tab.key === "reviewed" && <RecentlyReviewed />}
        </div>
      ))}
    </div>
  );
}
