/**
 * "Import from Obsidian": a vault (zip) merged into a notebook under its head note, in one
 * transaction. A note with the same title under the same parent is updated, not duplicated, so
 * importing the same vault twice changes nothing. Answers a report of what was done and skipped.
 */
import { and, eq, isNotNull, isNull, ne } from "drizzle-orm";
import type { AppContext } from "../../context";
import { notebookAttachments, noteImages, notes } from "../../db/schema";
import { NotFoundError, ValidationError } from "../errors";
import { insertLastChildren } from "../notes/insert-note";
import { noteTextSaved } from "../notes/note-changes";
import { findNote, getNotebook, type NoteRow } from "../notes/rows";
import { authorizeEdit } from "../policies";
import type { CurrentUser } from "../users";
import { attachmentPathKey } from "./attachments";
import { readVault, type SkippedFile, type VaultAttachment, type VaultImage, type VaultNote } from "./read-vault";
import { asBuffer, VaultImportError } from "./read-zip";

export interface ImportReport {
  created: number;
  updated: number;
  links: number;
  images: number;
  /** Files the notes embed or link to, added or changed (images, audio, video, PDF). */
  attachments: number;
  skipped: SkippedFile[];
}

/** The 400 every failed import answers (spec 8: "Failed to import file"), with the reason. */
export function importFailure(reason: string): ValidationError {
  return new ValidationError({ file: `Failed to import file: ${reason}` });
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.byteLength === b.byteLength && Buffer.compare(asBuffer(a), asBuffer(b)) === 0;

/** Imports a vault into a notebook the user may edit. */
export async function importVault(ctx: AppContext, current: CurrentUser, notebookId: number, file: unknown): Promise<ImportReport> {
  const notebook = getNotebook(ctx, notebookId);
  authorizeEdit(ctx, current, notebook);
  if (!(file instanceof Blob)) throw new ValidationError({ file: "must be a .zip file" });
  const name = file instanceof File ? file.name : "";
  if (name && !/\.zip$/i.test(name)) throw new ValidationError({ file: "must be a .zip file" });

  let vault: Awaited<ReturnType<typeof readVault>>;
  try {
    const head = notebook.headNoteId === null ? undefined : findNote(ctx, notebook.headNoteId);
    vault = await readVault(new Uint8Array(await file.arrayBuffer()), head?.title ?? "");
  } catch (error) {
    if (error instanceof VaultImportError) throw importFailure(error.message);
    throw error;
  }

  const report: ImportReport = { created: 0, updated: 0, links: 0, images: 0, attachments: 0, skipped: [...vault.skipped] };
  const changedText: number[] = [];
  const now = ctx.clock.now();
  try {
    ctx.db.transaction((tx) => {
      const head = tx
        .select()
        .from(notes)
        .where(eq(notes.id, notebook.headNoteId ?? -1))
        .get();
      if (!head || head.deletedAt) throw new NotFoundError("Notebook");
      const placed = new Map<VaultNote, NoteRow>();
      const placedIds = new Set<number>();
      const storedImages = new Map<string, number>();

      const storeImage = (image: VaultImage) => {
        let id = storedImages.get(image.path);
        if (id === undefined) {
          id = tx
            .insert(noteImages)
            .values({ userId: current.user.id, contentType: image.contentType, bytes: asBuffer(image.bytes), createdAt: now })
            .returning({ id: noteImages.id })
            .get().id;
          storedImages.set(image.path, id);
        }
        return id;
      };

      /** Brings a note's text, accessories and image in line with the vault; answers whether anything changed. */
      const update = (row: NoteRow, vaultNote: VaultNote, isHead: boolean): boolean => {
        const set: Partial<NoteRow> = {};
        // An empty file never wipes text already there (a vault may hold a folder without text).
        if (vaultNote.details !== undefined && vaultNote.details !== "" && vaultNote.details !== row.details)
          set.details = vaultNote.details;
        if (!isHead && vaultNote.title !== row.title) set.title = vaultNote.title;
        if (vaultNote.wikidataId && vaultNote.wikidataId !== row.wikidataId) set.wikidataId = vaultNote.wikidataId;
        if (vaultNote.url && vaultNote.url !== row.url) set.url = vaultNote.url;
        if (vaultNote.image) {
          const existing = row.imageId === null ? undefined : tx.select().from(noteImages).where(eq(noteImages.id, row.imageId)).get();
          if (!existing || !sameBytes(existing.bytes, vaultNote.image.bytes)) {
            set.imageId = storeImage(vaultNote.image);
            set.imageUrl = null;
            report.images++;
          }
        } else if (vaultNote.imageUrl && row.imageId === null && vaultNote.imageUrl !== row.imageUrl) set.imageUrl = vaultNote.imageUrl;
        if (Object.keys(set).length === 0) return false;
        tx.update(notes)
          .set({ ...set, updatedAt: now })
          .where(eq(notes.id, row.id))
          .run();
        if (set.imageId !== undefined && row.imageId !== null) {
          const stillUsed = tx
            .select({ id: notes.id })
            .from(notes)
            .where(and(eq(notes.imageId, row.imageId), ne(notes.id, row.id)))
            .get();
          if (!stillUsed) tx.delete(noteImages).where(eq(noteImages.id, row.imageId)).run();
        }
        if (set.details !== undefined || set.title !== undefined) changedText.push(row.id);
        return true;
      };

      const childrenOf = (parentId: number) =>
        tx
          .select()
          .from(notes)
          .where(and(eq(notes.parentId, parentId), isNull(notes.deletedAt), isNull(notes.targetNoteId)))
          .orderBy(notes.siblingOrder)
          .all();

      /**
       * Places the tree level by level: each vault note's children are matched by title with the
       * existing children of its note (a note made by this import has none yet), and the new ones
       * of a whole level are inserted together.
       */
      placed.set(vault.root, head);
      if (update(head, vault.root, true)) report.updated++;
      let level: { vaultNote: VaultNote; row: NoteRow; isNew: boolean }[] = [{ vaultNote: vault.root, row: head, isNew: false }];
      while (level.length > 0) {
        const next: typeof level = [];
        const toCreate: { child: VaultNote; parent: NoteRow }[] = [];
        for (const { vaultNote, row: parent, isNew } of level) {
          if (vaultNote.children.length === 0) continue;
          const existing = isNew ? [] : childrenOf(parent.id);
          for (const child of vaultNote.children) {
            // Two vault files of one title under one parent stay two notes (each matches its own on a second import).
            const match = existing.find((row) => row.title === child.title && !placedIds.has(row.id));
            if (!match) {
              toCreate.push({ child, parent });
              continue;
            }
            if (update(match, child, false)) report.updated++;
            placed.set(child, match);
            placedIds.add(match.id);
            next.push({ vaultNote: child, row: match, isNew: false });
          }
        }
        const created = insertLastChildren(
          tx,
          now,
          toCreate.map(({ child, parent }) => ({
            parent,
            columns: {
              title: child.title,
              details: child.details ?? "",
              wikidataId: child.wikidataId ?? null,
              url: child.url ?? null,
              imageUrl: child.image ? null : (child.imageUrl ?? null),
              imageId: child.image ? storeImage(child.image) : null,
            },
          })),
        );
        toCreate.forEach(({ child }, i) => {
          const row = created[i]!;
          if (child.image) report.images++;
          report.created++;
          changedText.push(row.id);
          placed.set(child, row);
          placedIds.add(row.id);
          next.push({ vaultNote: child, row, isNew: true });
        });
        level = next;
      }

      // Links, once every note has its id; a link already there is not made again.
      const existingLinks = new Set(
        tx
          .select({ parentId: notes.parentId, title: notes.title, targetNoteId: notes.targetNoteId })
          .from(notes)
          .where(and(eq(notes.notebookId, notebookId), isNull(notes.deletedAt), isNotNull(notes.targetNoteId)))
          .all()
          .map((link) => `${link.parentId}\n${link.title}\n${link.targetNoteId}`),
      );
      const newLinks: Parameters<typeof insertLastChildren>[2] = [];
      for (const [vaultNote, source] of placed) {
        const wanted = [...vaultNote.typedLinks, ...vaultNote.relatedLinks.map((target) => ({ type: "related to", target }))];
        const linkedTo = new Set<number>();
        for (const { type, target } of wanted) {
          const targetNote = vault.resolve(target, vaultNote.folder);
          const targetRow = targetNote && placed.get(targetNote);
          if (!targetRow) {
            report.skipped.push({ path: vaultNote.source ?? vaultNote.title, reason: `the link [[${target}]] names no note of the vault` });
            continue;
          }
          // A plain [[link]] to a note already linked with a type adds nothing; a note never links to itself.
          if (targetRow.id === source.id || (type === "related to" && linkedTo.has(targetRow.id))) continue;
          linkedTo.add(targetRow.id);
          const key = `${source.id}\n${type}\n${targetRow.id}`;
          if (existingLinks.has(key)) continue;
          existingLinks.add(key);
          newLinks.push({ parent: source, columns: { title: type, targetNoteId: targetRow.id } });
        }
      }
      report.links += insertLastChildren(tx, now, newLinks).length;

      // The files the notes embed, at their place in the vault; one already there with the same bytes is left alone.
      const storeAttachment = (attachment: VaultAttachment) => {
        const pathKey = attachmentPathKey(attachment.path);
        const existing = tx
          .select({ id: notebookAttachments.id, bytes: notebookAttachments.bytes })
          .from(notebookAttachments)
          .where(and(eq(notebookAttachments.notebookId, notebookId), eq(notebookAttachments.pathKey, pathKey)))
          .get();
        if (existing && sameBytes(existing.bytes, attachment.bytes)) return;
        // Changed bytes get a new id: an attachment's address is cached as never changing.
        if (existing) tx.delete(notebookAttachments).where(eq(notebookAttachments.id, existing.id)).run();
        tx.insert(notebookAttachments)
          .values({
            notebookId,
            path: attachment.path,
            pathKey,
            contentType: attachment.contentType,
            bytes: asBuffer(attachment.bytes),
            createdAt: now,
          })
          .run();
        report.attachments++;
      };
      for (const attachment of vault.attachments) storeAttachment(attachment);
    });
  } catch (error) {
    if (error instanceof NotFoundError) throw error;
    // Nothing was written (the transaction rolled back): the reason goes to the page.
    throw importFailure((error as Error).message || "the import stopped");
  }
  for (const id of changedText) noteTextSaved(ctx, id);
  return report;
}
