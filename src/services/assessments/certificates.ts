import { and, desc, eq } from "drizzle-orm";
import type { AppContext } from "../../context";
import type { DbHandle } from "../../db/connection";
import { assessmentAttempts, certificates, users } from "../../db/schema";
import { BadRequestError, NotFoundError } from "../errors";
import { type NotebookJson, presentNotebook } from "../notes/presenters";
import { getNotebook, type NotebookRow } from "../notes/rows";
import { authorizeAssessment } from "../policies";
import { type UserReferenceJson, userReference } from "../user-references";
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

type CertificateRow = typeof certificates.$inferSelect;

/**
 * A pass of a certifiable notebook: a new certificate starts now; an existing one keeps its start
 * date and expires the notebook's period after this pass. Called inside the submission's transaction.
 */
export function issueOrRenewCertificate(tx: DbHandle, userId: number, notebook: NotebookRow, passedAt: Date) {
  const expiryDate = expiryFrom(passedAt, notebook.certificateExpiry);
  tx.insert(certificates)
    .values({ userId, notebookId: notebook.id, startDate: passedAt, expiryDate })
    .onConflictDoUpdate({ target: [certificates.userId, certificates.notebookId], set: { expiryDate } })
    .run();
}

function presentCertificate(
  ctx: AppContext,
  current: CurrentUser | undefined,
  row: CertificateRow,
  notebook: NotebookRow,
): CertificateJson {
  const name = (userId: number) => ctx.db.select({ name: users.name }).from(users).where(eq(users.id, userId)).get()?.name ?? "";
  return {
    id: row.id,
    user: userReference(ctx, current, row.userId),
    notebook: presentNotebook(ctx, current, notebook),
    startDate: row.startDate.toISOString(),
    expiryDate: row.expiryDate.toISOString(),
    creatorName: name(notebook.creatorId),
  };
}

function findCertificate(ctx: AppContext, userId: number, notebookId: number) {
  return ctx.db
    .select()
    .from(certificates)
    .where(and(eq(certificates.userId, userId), eq(certificates.notebookId, notebookId)))
    .get();
}

/** GET /certificate/{notebook}: the user's certificate for the notebook (404 without one). */
export function certificateOf(ctx: AppContext, current: CurrentUser | undefined, notebookId: number): CertificateJson {
  const notebook = getNotebook(ctx, notebookId);
  authorizeAssessment(ctx, current, notebook);
  const row = findCertificate(ctx, current!.user.id, notebook.id);
  if (!row) throw new NotFoundError("Certificate");
  return presentCertificate(ctx, current, row, notebook);
}

/**
 * POST /certificate/{notebook}: claims the certificate of the user's last passed attempt of a
 * certifiable notebook (a pass issues it already, so this answers it; it never extends it).
 */
export function claimCertificate(ctx: AppContext, current: CurrentUser | undefined, notebookId: number): CertificateJson {
  const notebook = getNotebook(ctx, notebookId);
  authorizeAssessment(ctx, current, notebook);
  const existing = findCertificate(ctx, current!.user.id, notebook.id);
  if (existing) return presentCertificate(ctx, current, existing, notebook);
  if (!notebook.certifiable) throw new BadRequestError("This notebook is not certifiable");
  const lastPass = ctx.db
    .select()
    .from(assessmentAttempts)
    .where(
      and(
        eq(assessmentAttempts.userId, current!.user.id),
        eq(assessmentAttempts.notebookId, notebook.id),
        eq(assessmentAttempts.isPass, true),
      ),
    )
    .orderBy(desc(assessmentAttempts.submittedAt))
    .get();
  if (!lastPass?.submittedAt) throw new BadRequestError("Pass the assessment first");
  ctx.db.transaction((tx) => issueOrRenewCertificate(tx, current!.user.id, notebook, lastPass.submittedAt!));
  return presentCertificate(ctx, current, findCertificate(ctx, current!.user.id, notebook.id)!, notebook);
}
