import { t } from "elysia";
import type { AnkiImportReport as AnkiImportReportJson } from "../../services/vaults/anki-import";
import type { ImportReport as ImportReportJson } from "../../services/vaults/import";
import { Integer } from "./integer";
import { binaryAnswer } from "./media";
import { describes } from "./same-type";

/** Obsidian vaults and Anki decks: the import forms, their reports, the vault download. */

const SkippedFile = t.Object({ path: t.String(), reason: t.String() });

export const ImportReport = describes<ImportReportJson>()(
  t.Object({
    created: Integer(),
    updated: Integer(),
    links: Integer(),
    images: Integer(),
    attachments: Integer(),
    skipped: t.Array(SkippedFile),
  }),
);

export const AnkiImportReport = describes<AnkiImportReportJson>()(
  t.Object({
    noteId: Integer(),
    created: Integer(),
    images: Integer(),
    trackers: Integer(),
    reviews: Integer(),
    skipped: t.Array(SkippedFile),
  }),
);

/** A vault to import, as a multipart form; the service opens the zip (and says what is wrong with it). */
export const VaultUpload = t.Object({ file: t.File({ error: "must be a .zip file" }) });

/** A deck to import, as a multipart form; with withReviewState its learned cards keep their schedule and reviews. */
export const DeckUpload = t.Object({
  file: t.File({ error: "must be an .apkg file" }),
  withReviewState: t.Optional(t.Union([t.Boolean(), t.Literal("true"), t.Literal("false")], { error: "must be true or false" })),
});

export const VaultDownload = binaryAnswer("application/zip", "The notebook as an Obsidian vault: a zip of Markdown files and images");
