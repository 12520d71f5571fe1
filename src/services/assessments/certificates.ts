import type { AppContext } from "../../context";
import type { CertificateRow } from "../../store/assessments/assessments-store";
import { BadRequestError, NotFoundError } from "../errors";
import { type NotebookJson, presentNotebook } from "../notes/presenters";
import { type NotebookRow, requireNotebook } from "../notes/rows";
import { authorizeAssessment } from "../policies";
import { loadUserReference, type UserReferenceJson } from "../user-references";
import type { CurrentUser } from "../users";
import { expiryFrom } from "./expiry";

/** Certificate: who, for which notebook, from when until when, and who made the notebook. */
export interface CertificateJson {
  id: number;
  user: UserReferenceJson;
  notebook: NotebookJson;
  startDate: string;
  expiryDate: string;
  creatorName: string;
}

async function presentCertificate(
  ctx: AppContext,
  current: CurrentUser | undefined,
  row: CertificateRow,
  notebook: NotebookRow,
): Promise<CertificateJson> {
  const creator = await ctx.stores.users.byId(notebook.creatorId);
  return {
    id: row.id,
    user: await loadUserReference(ctx, current, row.userId),
    notebook: await presentNotebook(ctx, current, notebook),
    startDate: row.startDate.toISOString(),
    expiryDate: row.expiryDate.toISOString(),
    creatorName: creator?.name ?? "",
  };
}

/** GET /certificate/{notebook}: the user's certificate for the notebook (404 without one). */
export async function certificateOf(ctx: AppContext, current: CurrentUser | undefined, notebookId: number): Promise<CertificateJson> {
  const notebook = await requireNotebook(ctx, notebookId);
  await authorizeAssessment(ctx, current, notebook);
  const row = await ctx.stores.assessments.certificate(current!.user.id, notebook.id);
  if (!row) throw new NotFoundError("Certificate");
  return presentCertificate(ctx, current, row, notebook);
}

/**
 * POST /certificate/{notebook}: claims the certificate of the user's last passed attempt of a
 * certifiable notebook (a pass issues it already, so this answers it; it never extends it).
 */
export async function claimCertificate(ctx: AppContext, current: CurrentUser | undefined, notebookId: number): Promise<CertificateJson> {
  const notebook = await requireNotebook(ctx, notebookId);
  await authorizeAssessment(ctx, current, notebook);
  const existing = await ctx.stores.assessments.certificate(current!.user.id, notebook.id);
  if (existing) return presentCertificate(ctx, current, existing, notebook);
  if (!notebook.certifiable) throw new BadRequestError("This notebook is not certifiable");
  const lastPass = await ctx.stores.assessments.lastPass(current!.user.id, notebook.id);
  if (!lastPass?.submittedAt) throw new BadRequestError("Pass the assessment first");
  const passedAt = lastPass.submittedAt;
  const row = await ctx.stores.assessments.claimCertificate(
    current!.user.id,
    notebook.id,
    passedAt,
    expiryFrom(passedAt, notebook.certificateExpiry),
  );
  return presentCertificate(ctx, current, row, notebook);
}
