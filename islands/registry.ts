/**
 * Every island, by the name of its folder. The server renders them inside pages; the client
 * bundle has one entry per folder (scripts/build-client.ts). A unit test keeps the two in step.
 */
import AccountMenu from "./account-menu";
import AdminDashboard from "./admin-dashboard";
import AnsweredQuestion from "./answered-question";
import Assessment from "./assessment";
import AssessmentHistory from "./assessment-history";
import Assimilate from "./assimilate";
import Bazaar from "./bazaar";
import Circles from "./circles";
import { serverPartsLoaded } from "./lib/lazy";
import MenuBadge from "./menu-badge";
import MenuDrawer from "./menu-drawer";
import MessageCenter from "./message-center";
import NewUserForm from "./new-user-form";
import NoteShow from "./note-show";
import NoteTree from "./note-tree";
import Notebooks from "./notebooks";
import OperationsStatus from "./operations-status";
import Recall from "./recall";
import RecentNotes from "./recent-notes";
import SearchNote from "./search-note";
import ShellOverlays from "./shell-overlays";
import TestabilityPanel from "./testability-panel";
import TokensManager from "./tokens-manager";
import UndoButton from "./undo-button";

export const islands = {
  "account-menu": AccountMenu,
  "menu-badge": MenuBadge,
  "menu-drawer": MenuDrawer,
  "new-user-form": NewUserForm,
  "shell-overlays": ShellOverlays,
  "testability-panel": TestabilityPanel,
  "tokens-manager": TokensManager,
  notebooks: Notebooks,
  "note-show": NoteShow,
  "note-tree": NoteTree,
  "recent-notes": RecentNotes,
  "undo-button": UndoButton,
  "search-note": SearchNote,
  assimilate: Assimilate,
  recall: Recall,
  "answered-question": AnsweredQuestion,
  bazaar: Bazaar,
  circles: Circles,
  assessment: Assessment,
  "assessment-history": AssessmentHistory,
  "admin-dashboard": AdminDashboard,
  "message-center": MessageCenter,
  "operations-status": OperationsStatus,
};

// The parts the browser fetches only for the pages that show them (lib/lazy.tsx's lazyShown): the
// server renders them in full, so their code is here before any page is.
await serverPartsLoaded();

export type IslandName = keyof typeof islands;
/** The props of an island that takes none. */
export type NoProps = Record<never, never>;
export type IslandProps<N extends IslandName> = Parameters<(typeof islands)[N]> extends [infer P, ...unknown[]] ? P : NoProps;
