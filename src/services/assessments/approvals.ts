import type { AppContext } from "../../context";
import type { ApprovalRow } from "../../store/assessments/assessments-store";
import { NotFoundError } from "../errors";
import { type NotebookJson, presentNotebooks } from "../notes/presenters";
import { requireNotebook } from "../notes/rows";
import { authorizeAdmin, authorizeCertificationRequest, authorizeRead, type Reader } from "../policies";
import type { CurrentUser } from "../users";

/** NotebookCertificateApproval: the request, approved once lastApprovalTime is set. */
export interface NotebookCertificateApprovalJson {
  id: number;
  notebook: NotebookJson;
  lastApprovalTime?: string;
}

async function presentAll(ctx: AppContext, reader: Reader, rows: ApprovalRow[]): Promise<NotebookCertificateApprovalJson[]> {
  const notebooks = await Promise.all(rows.map((row) => requireNotebook(ctx, row.notebookId)));
  const notebookJsons = await presentNotebooks(ctx, reader, notebooks);
  return rows.map((row, i) => ({
    id: row.id,
    notebook: notebookJsons[i]!,
    ...(row.lastApprovalTime ? { lastApprovalTime: row.lastApprovalTime.toISOString() } : {}),
  }));
}

const present = async (ctx: AppContext, reader: Reader, row: ApprovalRow) => (await presentAll(ctx, reader, [row]))[0]!;

/** "Send Request": the creator asks for certification; asking again changes nothing. */
export async function requestApproval(ctx: AppContext, current: CurrentUser | undefined, notebookId: number) {
  const notebook = await requireNotebook(ctx, notebookId);
  await authorizeCertificationRequest(ctx, current, notebook);
  return present(ctx, current, await ctx.stores.assessments.requestApproval(notebook.id, ctx.clock.now()));
}

/** The notebook's request, or null when there is none (the settings' button shows "Send Request"). */
export async function approvalForNotebook(ctx: AppContext, current: CurrentUser | undefined, notebookId: number) {
  const notebook = await requireNotebook(ctx, notebookId);
  await authorizeRead(ctx, current, notebook);
  const row = await ctx.stores.assessments.approvalOfNotebook(notebook.id);
  return row ? present(ctx, current, row) : null;
}

/** The requests still waiting for an admin, oldest first. */
export async function pendingApprovals(ctx: AppContext, current: CurrentUser | undefined) {
  authorizeAdmin(current, "Only an administrator can see certification requests");
  return presentAll(ctx, current, await ctx.stores.assessments.pendingApprovals());
}

/** An admin approves: the notebook becomes certifiable (and stays so when questions are added later). */
export async function approve(ctx: AppContext, current: CurrentUser | undefined, approvalId: number) {
  authorizeAdmin(current, "Only an administrator can approve certification");
  const row = await ctx.stores.assessments.approve(approvalId, ctx.clock.now());
  if (!row) throw new NotFoundError("Certification request");
  return present(ctx, current, row);
}
