import { t } from "elysia";
import type { NoteAccessoryJson } from "../../services/accessories/presenter";
import type { NotebooksJson } from "../../services/notebooks";
import type { NoteRevisionsEvent as NoteRevisionsEventJson } from "../../services/notes/note-changes";
import type {
  ChildNoteJson,
  ChildrenPageJson,
  CircleJson,
  NotebookJson,
  NoteJson,
  NoteRealmJson,
  NoteTopologyJson,
} from "../../services/notes/presenters";
import type { NoteSearchResultJson } from "../../services/search";
import type { SubscriptionJson } from "../../services/sharing/subscriptions";
import type {
  WikidataEntityData as WikidataEntityDataJson,
  WikidataSearchEntity as WikidataSearchEntityJson,
} from "../../services/wikidata/client";
import { Integer } from "./integer";
import { eventStreamAnswer } from "./media";
import { describes } from "./same-type";

/** Response schemas of the note and notebook areas, named and nested as the reference names them. */

/** Typed as the presenter's type: Eden Treaty does not follow a recursive schema's static type. */
export const NoteTopology = describes<NoteTopologyJson>()(
  t.Unsafe<NoteTopologyJson>(
    t.Recursive(
      (topology) =>
        t.Object({
          id: Integer(),
          titleOrPredicate: t.String(),
          shortDetails: t.String(),
          linkType: t.Optional(t.String()),
          parentOrSubjectNoteTopology: t.Optional(topology),
          objectNoteTopology: t.Optional(topology),
          /** A note the reader may not read: no title, no details (Engram's own). */
          unreadable: t.Optional(t.Literal(true)),
        }),
      { $id: "NoteTopology" },
    ),
  ),
);

const noteFields = {
  id: Integer(),
  noteTopology: NoteTopology,
  parentId: t.Union([Integer(), t.Null()]),
  createdAt: t.String({ format: "date-time" }),
  updatedAt: t.String({ format: "date-time" }),
  /** How many times the title and the details have changed: a save says which one it was made from (Engram's own). */
  titleRevision: Integer(),
  detailsRevision: Integer(),
  deletedAt: t.Optional(t.String({ format: "date-time" })),
  wikidataId: t.Optional(t.String()),
  /** Undeleted children, so the tree shows counts without loading each child (Engram's own). */
  childrenCount: t.Optional(Integer()),
  /** How many of those children are links, which the tree leaves out (Engram's own). */
  linkCount: t.Optional(Integer()),
  /** A placeholder for a note the reader may not read (Engram's own). */
  unreadable: t.Optional(t.Literal(true)),
};

export const Note = describes<NoteJson>()(t.Object({ ...noteFields, details: t.String() }));

/** A child in a realm: a note without its full details. */
export const ChildNote = describes<ChildNoteJson>()(t.Object(noteFields));

export const Circle = describes<CircleJson>()(t.Object({ id: Integer(), name: t.String() }));

export const Notebook = describes<NotebookJson>()(
  t.Object({
    id: Integer(),
    title: t.String(),
    shortDetails: t.String(),
    headNoteId: Integer(),
    /** The creator's login, sent to the creator alone. */
    creatorId: t.Optional(t.String()),
    /** The creator's display name (Engram's own). */
    creatorName: t.String(),
    certifiable: t.Boolean(),
    notebookSettings: t.Object({
      skipMemoryTrackingEntirely: t.Boolean(),
      numberOfQuestionsInAssessment: t.Union([Integer(), t.Null()]),
      certificateExpiry: t.String(),
    }),
    circle: t.Optional(Circle),
    updated_at: t.String({ format: "date-time" }),
  }),
);

export const NoteRealm = describes<NoteRealmJson>()(
  t.Object({
    id: Integer(),
    note: Note,
    children: t.Optional(t.Array(ChildNote)),
    moreChildrenAfter: t.Optional(Integer()),
    inboundReferences: t.Optional(t.Array(Note)),
    notebook: t.Optional(Notebook),
    fromBazaar: t.Optional(t.Boolean()),
  }),
);

export const NoteRealms = t.Array(NoteRealm);

export const ChildrenPage = describes<ChildrenPageJson>()(
  t.Object({ children: t.Array(ChildNote), moreChildrenAfter: t.Optional(Integer()) }),
);

export const Subscription = describes<SubscriptionJson>()(
  t.Object({
    id: Integer(),
    title: t.String(),
    headNote: Note,
    notebook: Notebook,
    dailyTargetOfNewNotes: Integer(),
    notebookId: Integer(),
  }),
);

export const NotebooksViewedByUser = describes<NotebooksJson>()(
  t.Object({ notebooks: t.Array(Notebook), subscriptions: t.Array(Subscription) }),
);

/** A new note's realm and its parent's. */
export const NoteCreationResult = t.Object({ created: NoteRealm, parent: NoteRealm });

/** Where the browser goes after creating a notebook: its head note. */
export const RedirectToNoteResponse = t.Object({ noteId: Integer() });

/** A topology's own fields, without the topologies it nests. */
const topologyFields = {
  id: Integer(),
  titleOrPredicate: t.String(),
  shortDetails: t.String(),
  linkType: t.Optional(t.String()),
  unreadable: t.Optional(t.Literal(true)),
};

/**
 * A search hit's topology: NoteTopology as search presents it, nested at most one level (a link's
 * subject and object, each without their own). Not recursive, because Elysia shapes each answer by
 * its schema and shapes a recursive one item by item through a type check, which cost more than
 * the search itself on a page of 30 hits. The fields are NoteTopology's.
 */
const SearchHitTopology = t.Unsafe<NoteTopologyJson>(
  t.Object({
    ...topologyFields,
    parentOrSubjectNoteTopology: t.Optional(t.Object(topologyFields)),
    objectNoteTopology: t.Optional(t.Object(topologyFields)),
  }),
);

export const NoteSearchResult = describes<NoteSearchResultJson>()(t.Object({ noteTopology: SearchHitTopology, distance: t.Number() }));
export const NoteSearchResults = t.Array(NoteSearchResult);

export const NoteAccessory = describes<NoteAccessoryJson>()(
  t.Object({
    id: Integer(),
    url: t.Optional(t.String()),
    imageUrl: t.Optional(t.String()),
    imageMask: t.Optional(t.String()),
    useParentImage: t.Boolean(),
    imageWithMask: t.Optional(t.Object({ noteImage: t.String(), imageMask: t.Optional(t.String()) })),
    uploadedImage: t.Optional(t.String()),
  }),
);

export const WikidataSearchEntity = describes<WikidataSearchEntityJson>()(
  t.Object({ id: t.String(), label: t.String(), description: t.String() }),
);

/** PascalCase keys, as the reference names them. */
export const WikidataEntityData = describes<WikidataEntityDataJson>()(
  t.Object({ WikidataTitleInEnglish: t.String(), WikipediaEnglishUrl: t.String() }),
);

const NoteRevisionsEvent = describes<NoteRevisionsEventJson>()(t.Object({ titleRevision: Integer(), detailsRevision: Integer() }));
const StreamEnded = t.Object({ reason: t.String() });

/** A note's change stream: its revisions now and after each save, until it ends. */
export const NoteChangeStream = eventStreamAnswer(
  t.Union([
    t.Object({ event: t.Literal("revisions"), data: NoteRevisionsEvent }),
    t.Object({ event: t.Literal("closed"), data: StreamEnded }),
    t.Object({ event: t.Literal("shutdown"), data: StreamEnded }),
  ]),
  "Server-sent events: `revisions` (JSON) at once and after each save of the title or details; `closed` when the reader may no longer read the note and `shutdown` when Engram restarts, each ending the stream.",
);
