import { t } from "elysia";
import type { OperationJson } from "../../operations";
import { Integer } from "./integer";
import { describes } from "./same-type";

/** Long work (an import, a backup) and how far it is; `result` is the finished work's own report. */
export const Operation = describes<OperationJson>()(
  t.Object({
    id: Integer(),
    kind: t.UnionEnum(["obsidian-import", "anki-import", "backup"]),
    label: t.String(),
    status: t.UnionEnum(["running", "done", "failed"]),
    phase: t.UnionEnum(["waiting", "reading", "writing", "publishing"]),
    done: Integer(),
    total: t.Union([Integer(), t.Null()]),
    notebookId: t.Union([Integer(), t.Null()]),
    result: t.Unknown(),
    error: t.Union([t.String(), t.Null()]),
    createdAt: t.String({ format: "date-time" }),
    finishedAt: t.Union([t.String({ format: "date-time" }), t.Null()]),
  }),
);

export const Operations = t.Array(Operation);
