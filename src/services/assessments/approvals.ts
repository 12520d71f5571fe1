import { eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../context";
import { notebookCertificateApprovals, notebooks } from "../../db/schema";
import { NotFoundError } from "../errors";
import { type NotebookJson, presentNotebook } from "../notes/presenters";
import { getNotebook } from "../notes/rows";
import { authorizeAdmin, authorizeCertificationRequest, authorizeRead, type Reader } from "../policies";
import type { CurrentUser } from "../users";

/** NotebookCertificateApproval: the request, approved once lastApprovalTime is set. */
export interface NotebookCertificateApprovalJson {
  id: number;
  notebook: NotebookJson;
  lastApprovalTime?: string;
}

type ApprovalRow = typeof notebookCertificateApprovals.$inferSelect;

function present(ctx: AppContext, reader: Reader, row: ApprovalRow): NotebookCertificateApprovalJson {
  return {
    id: row.id,
    notebook: presentNotebook(ctx, reader, getNotebook(ctx, row.notebookId)),
    ...(row.lastApprovalTime ? { lastApprovalTime: row.lastApprovalTime.toISOString() } : {}),
  };
}

const approvalOfNotebook = (ctx: AppContext, notebookId: number) =>
  ctx.db.select().from(notebookCertificateApprovals).where(eq(notebookCertificateApprovals.notebookId, notebookId)).get();

/** "Send Request": the creator asks for certification; asking again changes nothing. */
export function requestApproval(ctx: AppContext, current: CurrentUser | undefined, notebookId: number) {
  const notebook = getNotebook(ctx, notebookId);
  authorizeCertificationRequest(ctx, current, notebook);
  ctx.db.insert(notebookCertificateApprovals).values({ notebookId: notebook.id, createdAt: ctx.clock.now() }).onConflictDoNothing().run();
  return present(ctx, current, approvalOfNotebook(ctx, notebook.id)!);
}

/** The notebook's request, or null when there is none (the settings' button shows "Send Request"). */
export function approvalForNotebook(ctx: AppContext, current: CurrentUser | undefined, notebookId: number) {
  const notebook = getNotebook(ctx, notebookId);
  authorizeRead(ctx, current, notebook);
  const row = approvalOfNotebook(ctx, notebook.id);
  return row ? present(ctx, current, row) : null;
}

/** The requests still waiting for an admin, oldest first. */
export function pendingApprovals(ctx: AppContext, current: CurrentUser | undefined) {
  authorizeAdmin(current, "Only an administrator can see certification requests");
  return ctx.db
    .select()
    .from(notebookCertificateApprovals)
    .where(isNull(notebookCertificateApprovals.lastApprovalTime))
    .orderBy(notebookCertificateApprovals.id)
    .all()
    .map((row) => present(ctx, current, row));
}

/** An admin approves: the notebook becomes certifiable (and stays so when questions are added later). */
export function approve(ctx: AppContext, current: CurrentUser | undefined, approvalId: number) {
  authorizeAdmin(current, "Only an administrator can approve certification");
  const row = ctx.db.transaction((tx) => {
    const updated = tx
      .update(notebookCertificateApprovals)
      .set({ lastApprovalTime: ctx.clock.now() })
      .where(eq(notebookCertificateApprovals.id, approvalId))
      .returning()
      .get();
    if (!updated) throw new NotFoundError("Certification request");
    tx.update(notebooks).set({ certifiable: true }).where(eq(notebooks.id, updated.notebookId)).run();
    return updated;
  });
  return present(ctx, current, row);
}
