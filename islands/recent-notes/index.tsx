import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { LocalTime } from "../lib/dates";
import { noteTitleText } from "../lib/note-title";
import { type NoteRealmJson, notePath, recentNotesQuery } from "../lib/notes-queries";
import { type TabDefinition, Tabs } from "../lib/ui/Tabs";
import { RecentlyLearned, RecentlyReviewed } from "./tracker-tables";

function RecentlyAdded() {
  const { data: realms = [], isPending } = useQuery(recentNotesQuery());
  if (isPending) return <p className="muted">Loading...</p>;
  if (realms.length === 0) return <p className="empty-state">No notes yet.</p>;
  return (
    <ul className="recent-list">
      {realms.map((realm: NoteRealmJson) => (
        <li key={realm.id} className="recent-item">
          <a className="recent-item-title" dir="auto" href={notePath(realm.id)}>
            {noteTitleText(realm.note.noteTopology)}
          </a>
          {realm.notebook && (
            <span className="recent-item-notebook">
              <span className="visually-hidden">Notebook: </span>
              {realm.notebook.title}
            </span>
          )}
          <span className="recent-item-time">
            <span className="visually-hidden">Updated </span>
            <LocalTime iso={realm.note.updatedAt} />
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The /d/recent page's tabs: Recently Added/Updated, Recently Learned, Recently Reviewed. */
export default function RecentNotes() {
  const [selected, setSelected] = useState<TabKey>("added");
  return (
    <div className="recent-notes">
      <Tabs label="Recent notes" tabs={TABS} selected={selected} onSelect={setSelected} />
    </div>
  );
}

type TabKey = "added" | "learned" | "reviewed";
const TABS: TabDefinition<TabKey>[] = [
  { key: "added", label: "Recently Added/Updated", content: () => <RecentlyAdded /> },
  { key: "learned", label: "Recently Learned", content: () => <RecentlyLearned /> },
  { key: "reviewed", label: "Recently Reviewed", content: () => <RecentlyReviewed /> },
];
