import { t } from "elysia";
import type { DumpedNote, NotebookDumpJson } from "../../services/admin/assistant";
import {
  type BareNote as BareNoteJson,
  type GraphRAGResult as GraphRAGResultJson,
  RELATIONS_TO_FOCUS_NOTE,
} from "../../services/graph/bare-note";
import { Integer } from "./integer";
import { Notebook } from "./notes";
import { describes } from "./same-type";

/** A note's graph as the AI and the exports see it: bare notes named by URI and markdown links. */

const bareNoteFields = {
  uri: t.String(),
  subjectUriAndTitle: t.Optional(t.String()),
  predicate: t.Optional(t.String()),
  title: t.Optional(t.String()),
  objectUriAndTitle: t.Optional(t.String()),
  parentUriAndTitle: t.Optional(t.String()),
  relationToFocusNote: t.Optional(t.UnionEnum(RELATIONS_TO_FOCUS_NOTE)),
  details: t.Optional(t.String()),
};

export const BareNote = describes<BareNoteJson>()(t.Object(bareNoteFields));

export const GraphRAGResult = describes<GraphRAGResultJson>()(
  t.Object({
    focusNote: t.Object({
      ...bareNoteFields,
      contextualPath: t.Array(t.String()),
      children: t.Array(t.String()),
      priorSiblings: t.Array(t.String()),
      youngerSiblings: t.Array(t.String()),
      inboundReferences: t.Array(t.String()),
    }),
    relatedNotes: t.Array(BareNote),
  }),
);

/** A note of a notebook's dump: its bare note with what a note keeps beyond it. */
const DumpedNoteSchema = describes<DumpedNote>()(
  t.Object({
    ...bareNoteFields,
    wikidataId: t.Optional(t.String()),
    url: t.Optional(t.String()),
    recallSetting: t.Object({ level: Integer(), rememberSpelling: t.Boolean(), skipMemoryTracking: t.Boolean() }),
  }),
);

/** notebook-dump.json: a JSON download (its Content-Disposition names the file). */
export const NotebookDump = describes<NotebookDumpJson>()(
  t.Object({ notebook: Notebook, exportedAt: t.String({ format: "date-time" }), notes: t.Array(DumpedNoteSchema) }),
);
