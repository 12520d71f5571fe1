import { lazyComponent } from "../lib/lazy";

/*
 * The notebooks page's dialogs, each fetched when it first opens, not with the page: the settings
 * (with the Obsidian vault, certificate and AI assistant sections), the questions list (with the
 * Markdown renderer), the subscription, Anki import and new-notebook forms.
 */
export const NewNotebookDialog = lazyComponent(() => import("./NewNotebookDialog").then((m) => m.NewNotebookDialog));
export const NotebookSettingsDialog = lazyComponent(() => import("./NotebookSettingsDialog").then((m) => m.NotebookSettingsDialog));
export const NotebookQuestionsDialog = lazyComponent(() =>
  import("../lib/questions/NotebookQuestionsDialog").then((m) => m.NotebookQuestionsDialog),
);
export const SubscriptionDialog = lazyComponent(() => import("../lib/sharing/SubscriptionDialog").then((m) => m.SubscriptionDialog));
export const AnkiImportDialog = lazyComponent(() => import("../lib/vaults/AnkiImport").then((m) => m.AnkiImportDialog));
