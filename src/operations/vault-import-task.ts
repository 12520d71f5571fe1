/**
 * The worker side of "Import from Obsidian" (a worker task, src/workers/tasks.ts): reads the
 * vault entry by entry from the uploaded file and merges it into the notebook under its head
 * note with the worker's own connection, in short transactions: images as they are read, new
 * notes level by level (hidden until published), then links. Notes matched by title are
 * updated, and all of it shows in one short publishing transaction at the end; a failure
 * removes what was written, so a failed import changes nothing.
 */
import { statSync } from "node:fs";
import { mergeTexts } from "../../islands/lib/text-merge";
import type { NoteRow } from "../services/notes/rows";
import { stagedPathKey } from "../services/vaults/attachment-keys";
import { type ImportReport, readVault, type Vault, type VaultNote } from "../services/vaults/read-vault";
import { openZip, VaultImportError } from "../services/vaults/read-zip";
import { insertLastChildren } from "../store/notes/insert-note";
import {
  applyImportedUpdates,
  headNote,
  type ImportedUpdate,
  imageBytes,
  linksOfNotebook,
  liveChildren,
} from "../store/notes/notes-import";
import {
  dropUnusedImages,
  finish,
  forgetPending,
  publishAttachments,
  publishNotes,
  recordPending,
} from "../store/operations/operations-store";
import type { Session, Step } from "../store/session";
import type { DatabasePlace } from "../workers/database";
import { PendingWrites } from "./pending-writes";

/** The report's line for a note whose title or details were edited in Engram, in the same place, while the import ran. */
const editedMeanwhile = (field: "title" | "details") =>
  `its ${field} was edited in Engram during the import, in the same place: the edit was kept, not the vault's text`;

export interface VaultImportInput {
  /** Where the server's database is: the worker opens its own Database there. */
  database: DatabasePlace;
  operationId: number;
  zipPath: string;
  notebookId: number;
  userId: number;
  now: Date;
}

/** The report, and the notes whose text changed (the server tells their open pages). */
export type VaultImportOutput = ImportReport & { changedNoteIds: number[] };

export async function importVaultInWorker(input: VaultImportInput): Promise<VaultImportOutput> {
  const writes = await PendingWrites.open(input.database, input.operationId, input.now);
  try {
    return await importVault(writes, input);
  } catch (error) {
    await writes.removeAll();
    throw error;
  } finally {
    await writes.close();
  }
}

async function importVault(writes: PendingWrites, input: VaultImportInput): Promise<VaultImportOutput> {
  const { database } = writes;
  const now = input.now;
  function* headOf(s: Session): Step<NoteRow> {
    const head = yield* headNote(s, input.notebookId);
    if (!head || head.deletedAt) throw new VaultImportError("the notebook was deleted");
    return head;
  }
  const head = await database.read(headOf);

  writes.progress("reading", 0, undefined, true);
  let storedAttachments = 0;
  const archive = await openZip(input.zipPath, statSync(input.zipPath).size);
  let vault: Vault;
  try {
    vault = await readVault(archive, head.title, {
      storeImage: (image) => writes.storeImage(input.userId, image),
      storeAttachment: async (attachment) => {
        if (await writes.storeAttachment(input.notebookId, attachment)) storedAttachments++;
      },
      progress: (read, total) => writes.progress("reading", read, total),
    });
  } finally {
    archive.close();
  }

  const report: ImportReport = {
    created: 0,
    updated: 0,
    links: 0,
    images: 0,
    attachments: storedAttachments,
    skipped: [...vault.skipped],
  };
  const changedText: number[] = [];
  const placed = new Map<VaultNote, NoteRow>();
  const placedIds = new Set<number>();
  const updates: ImportedUpdate[] = [];
  /** Where each updated note's text came from in the vault, for the report. */
  const updatedPaths = new Map<number, string>();
  const usedImages = new Set<number>();
  const imageSha = new Map<number, string>();

  const shaOfStored = async (imageId: number) => {
    let sha = imageSha.get(imageId);
    if (sha === undefined) {
      const bytes = await database.read((s) => imageBytes(s, imageId));
      sha = bytes ? new Bun.CryptoHasher("sha256").update(bytes).digest("hex") : "";
      imageSha.set(imageId, sha);
    }
    return sha;
  };

  /** What must change for a note to match the vault (applied when publishing). */
  const plannedUpdate = async (row: NoteRow, vaultNote: VaultNote, isHead: boolean): Promise<boolean> => {
    const set: ImportedUpdate["set"] = {};
    // An empty file never wipes text already there (a vault may hold a folder without text).
    if (vaultNote.details !== undefined && vaultNote.details !== "" && vaultNote.details !== row.details) set.details = vaultNote.details;
    if (!isHead && vaultNote.title !== row.title) set.title = vaultNote.title;
    if (vaultNote.wikidataId && vaultNote.wikidataId !== row.wikidataId) set.wikidataId = vaultNote.wikidataId;
    if (vaultNote.url && vaultNote.url !== row.url) set.url = vaultNote.url;
    if (vaultNote.image) {
      if (row.imageId === null || (await shaOfStored(row.imageId)) !== vaultNote.image.sha256) {
        set.imageId = vaultNote.image.imageId;
        set.imageUrl = null;
        usedImages.add(vaultNote.image.imageId);
        report.images++;
      }
    } else if (vaultNote.imageUrl && row.imageId === null && vaultNote.imageUrl !== row.imageUrl) set.imageUrl = vaultNote.imageUrl;
    if (Object.keys(set).length === 0) return false;
    updates.push({ noteId: row.id, set, read: { title: row.title, details: row.details }, oldImageId: row.imageId });
    updatedPaths.set(row.id, vaultNote.source ?? vaultNote.title);
    if (set.details !== undefined || set.title !== undefined) changedText.push(row.id);
    return true;
  };

  const childrenOf = (parentId: number) => database.read((s) => liveChildren(s, parentId));

  const total = vault.noteCount;
  let written = 0;
  writes.progress("writing", 0, total, true);

  /** New notes, hidden (deleted at the import's time) and listed until the import publishes them. */
  const insertHidden = (items: Parameters<typeof insertLastChildren>[2]) =>
    writes.inBatches(
      items,
      function* (s, batch) {
        const rows = yield* insertLastChildren(
          s,
          now,
          batch.map((item) => ({ ...item, columns: { ...item.columns, deletedAt: now } })),
        );
        yield* recordPending(
          s,
          input.operationId,
          "note",
          rows.map((row) => row.id),
        );
        return rows;
      },
      (count) => {
        written += count;
        writes.progress("writing", Math.min(written, total), total);
      },
    );

  // The tree, level by level: each vault note's children are matched by title with the existing
  // children of its note (a note made by this import has none yet); a level's new ones go in together.
  placed.set(vault.root, head);
  if (await plannedUpdate(head, vault.root, true)) report.updated++;
  written++;
  let level: { vaultNote: VaultNote; row: NoteRow; isNew: boolean }[] = [{ vaultNote: vault.root, row: head, isNew: false }];
  while (level.length > 0) {
    const next: typeof level = [];
    const toCreate: { child: VaultNote; parent: NoteRow }[] = [];
    for (const { vaultNote, row: parent, isNew } of level) {
      if (vaultNote.children.length === 0) continue;
      const existing = isNew ? [] : await childrenOf(parent.id);
      for (const child of vaultNote.children) {
        // Two vault files of one title under one parent stay two notes (each matches its own on a second import).
        const match = existing.find((row) => row.title === child.title && !placedIds.has(row.id));
        if (!match) {
          toCreate.push({ child, parent });
          continue;
        }
        if (await plannedUpdate(match, child, false)) report.updated++;
        written++;
        placed.set(child, match);
        placedIds.add(match.id);
        next.push({ vaultNote: child, row: match, isNew: false });
      }
    }
    const created = await insertHidden(
      toCreate.map(({ child, parent }) => {
        if (child.image) usedImages.add(child.image.imageId);
        return {
          parent,
          columns: {
            title: child.title,
            details: child.details ?? "",
            wikidataId: child.wikidataId ?? null,
            url: child.url ?? null,
            imageUrl: child.image ? null : (child.imageUrl ?? null),
            imageId: child.image ? child.image.imageId : null,
          },
        };
      }),
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
    (await database.read((s) => linksOfNotebook(s, input.notebookId))).map(
      (link) => `${link.parentId}\n${link.title}\n${link.targetNoteId}`,
    ),
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
  report.links += (await insertHidden(newLinks)).length;

  writes.progress("publishing", total, total, true);
  const { operationId, notebookId } = input;
  const prefixLength = stagedPathKey(operationId, "").length;
  let skipped = report.skipped;
  await writes.publish(function* (s) {
    yield* headOf(s);
    // Text edited in Engram while the import ran is merged with the vault's, or kept.
    const kept = yield* applyImportedUpdates(s, updates, now, mergeTexts);
    yield* publishNotes(s, operationId);
    yield* publishAttachments(s, operationId, notebookId, prefixLength);
    yield* dropUnusedImages(s, operationId, usedImages);
    yield* forgetPending(s, operationId);
    skipped = [
      ...report.skipped,
      ...kept.map(({ noteId, field }) => ({ path: updatedPaths.get(noteId) ?? "", reason: editedMeanwhile(field) })),
    ];
    if (!(yield* finish(s, operationId, { ...report, skipped }, writes.clock()))) throw new VaultImportError("the import was stopped");
  });
  return { ...report, skipped, changedNoteIds: changedText };
}
