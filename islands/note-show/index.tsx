import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useState } from "react";
import { detailsBody, detailsParts, withBody } from "../../src/services/notes/note-properties";
import { ApiError, api, call, keepalive as keepaliveOption } from "../lib/api";
import { NoteConversations } from "../lib/conversations/NoteConversations";
import { useHydrated } from "../lib/dates";
import { icons } from "../lib/icons";
import { useElementId } from "../lib/island-id";
import { lazyComponent, lazyShown } from "../lib/lazy";
import { notePath, noteRealmQuery } from "../lib/notes-queries";
import { confirmPopup, showToast } from "../lib/ui-store";
import { pushUndo } from "../lib/undo-history";
import { type Autosave, useAutosave } from "../lib/use-autosave";
import { NoteAccessoryView } from "./accessory";
import { AudioToolsButton } from "./ai/AudioToolsButton";
import { SuggestTitleButton } from "./ai/SuggestTitle";
import { MarkdownEditor, RichEditor } from "./DetailsEditor";
import { DETAILS_MAX_LENGTH, FieldLimit, TITLE_MAX_LENGTH } from "./FieldLimit";
import { LinkFlow } from "./links";
import { MarkdownPreview } from "./MarkdownPreview";
import { MoreOptionsMenu } from "./MoreOptionsMenu";
import type { NewNotePlacement } from "./NewNoteDialog";
import { ChildCards, RecentUpdateIndicator } from "./NoteDetails";
import { NoteInfoBar, RecallSettingsDialog } from "./recall-settings";
import { TitleEditor } from "./TitleEditor";
import { serverMarkdownChecks, useMarkdownChecks } from "./use-markdown-checks";
import { useNoteChanges } from "./use-note-changes";
import { WikidataOptions } from "./wikidata";

// What shows only after a click (dialogs, the dictation panel) is fetched then: see lib/lazy.tsx.
const NewNoteDialog = lazyComponent(() => import("./NewNoteDialog").then((m) => m.NewNoteDialog));
const GenerateImageDialog = lazyComponent(() => import("./ai/GenerateImageDialog").then((m) => m.GenerateImageDialog));
const AudioTools = lazyComponent(() => import("./ai/AudioTools").then((m) => m.AudioTools));
const EditNoteImageDialog = lazyComponent(() => import("./accessory/EditNoteImageDialog").then((m) => m.EditNoteImageDialog));
const EditNoteUrlDialog = lazyComponent(() => import("./accessory/EditNoteUrlDialog").then((m) => m.EditNoteUrlDialog));
const ExportDialog = lazyComponent(() => import("./export").then((m) => m.ExportDialog));
const ObsidianImportDialog = lazyComponent(() => import("../lib/vaults/ObsidianVault").then((m) => m.ObsidianImportDialog));
const EditConflictChoice = lazyComponent(() => import("./conflict/EditConflictChoice").then((m) => m.EditConflictChoice));
// The Markdown editor's math preview and embedded files show with it only: fetched when it shows.
const MathPreview = lazyComponent(() => import("./MathPreview").then((m) => m.MathPreview));
const EmbeddedFiles = lazyComponent(() => import("../lib/vaults/EmbeddedFiles").then((m) => m.EmbeddedFiles));
const NoteQuestionsDialog = lazyComponent(() => import("../lib/questions/NoteQuestionsDialog").then((m) => m.NoteQuestionsDialog));
// What only some notes show (their properties, a link's ends, the links to them): rendered by the
// server with the page, fetched by the browser only for those notes.
const NoteProperties = lazyShown(() => import("../lib/vaults/NoteProperties").then((m) => m.NoteProperties));
const LinkNoteHeader = lazyShown(() => import("./links/LinkNoteHeader").then((m) => m.LinkNoteHeader));
const ReferencedBy = lazyShown(() => import("./links/ReferencedBy").then((m) => m.ReferencedBy));

const UNAUTHORIZED_SAVE = "You are not authorized to edit this note. Perhaps you are not logged in?";
const EDITOR_MODE_KEY = "engram.details-editor";
type EditorMode = "rich" | "markdown";

/**
 * Saves one text field of a note, saying which revision it was made from; the answer (the note's
 * realm, with what the server kept: a merge when others saved meanwhile) goes into the cache.
 */
function useTextSaver(noteId: number, field: "title" | "details") {
  const queryClient = useQueryClient();
  return async (value: string, { keepalive, retry, baseRevision }: { keepalive: boolean; retry: boolean; baseRevision?: number }) => {
    try {
      const note = api.text_content({ note: noteId });
      const options = keepalive ? keepaliveOption : undefined;
      const saving =
        field === "title"
          ? note.title.patch({ newTitle: value, baseRevision }, options)
          : note.details.patch({ details: value, baseRevision }, options);
      const realm = await call(saving, { silent: true, onUnauthorized: () => showToast(UNAUTHORIZED_SAVE, "error") });
      queryClient.setQueryData(noteRealmQuery(noteId).queryKey, realm);
      return field === "title"
        ? { value: realm.note.noteTopology.titleOrPredicate, revision: realm.note.titleRevision }
        : { value: realm.note.details, revision: realm.note.detailsRevision };
    } catch (error) {
      // A 400 is shown beside its field (FieldLimit), not in a toast, and a 409 (someone else
      // changed the same place) as the choice between both versions; a failing save is told once,
      // then the save state ("Not saved yet, retrying...") says it goes on trying.
      const toast = error instanceof ApiError && ![0, 400, 401, 409].includes(error.status) && !retry;
      if (toast) showToast(error.message, "error");
      throw error;
    }
  };
}

/**
 * The details as the editors see them: their text only. A change keeps the properties at the top
 * exactly as they are (note-properties.ts), whatever the details were changed to meanwhile.
 */
function detailsTextOnly(details: Autosave): Autosave {
  return {
    ...details,
    value: detailsBody(details.value),
    currentValue: () => detailsBody(details.currentValue()),
    // The value the editor showed before this edit, with the properties as they are now.
    onChange: (text, basedOn) => {
      const now = details.currentValue();
      details.onChange(withBody(now, text), basedOn === undefined ? undefined : withBody(now, basedOn));
    },
  };
}

/** How long typed Markdown rests before it is checked for rich mode (a long note takes ~0.1 s). */
const RICH_MODE_CHECK_DELAY_MS = 300;

/** The value once it has stopped changing for `delayMs` (at first, the value itself). */
function useSettledValue(value: string, delayMs: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/** The note of the note page: its title and details (autosaved), toolbar, children and dates. */
export default function NoteShow({
  noteId,
  readonly,
  initialDetailsHtml,
}: {
  noteId: number;
  readonly: boolean;
  initialDetailsHtml: string;
}) {
  const { data: realm } = useQuery(noteRealmQuery(noteId));
  const [dialog, setDialog] = useState<
    NewNotePlacement | "search-and-link" | "image" | "url" | "export" | "recall-settings" | "obsidian-import" | "questions" | "ai-image"
  >();
  const [mode, setMode] = useState<EditorMode>("rich");
  // Chosen with "Edit as rich content": the rich editor loads at once (else on first click or key).
  const [richChosen, setRichChosen] = useState(false);
  const [audioTools, setAudioTools] = useState(false);

  const note = realm?.note;
  const deleted = !!note?.deletedAt;
  const editable = !readonly && !deleted;
  // What the editors show and edit: the details' text, their properties kept apart (NoteProperties).
  const [initialDetails] = useState(() => detailsBody(note?.details ?? ""));

  const queryClient = useQueryClient();
  const refetchNote = () => void queryClient.invalidateQueries({ queryKey: noteRealmQuery(noteId).queryKey });
  const title = useAutosave({
    serverValue: note?.noteTopology.titleOrPredicate ?? "",
    serverRevision: note?.titleRevision,
    save: useTextSaver(noteId, "title"),
    canSave: (value) => value.trim().length > 0 && value.length <= TITLE_MAX_LENGTH,
    onSaved: (_saved, previous, baseRevision) => pushUndo({ type: "edit title", noteId, textContent: previous, baseRevision }),
    onConflict: refetchNote,
    onDiscarded: (mine, baseRevision) => pushUndo({ type: "edit title", noteId, textContent: mine, baseRevision }),
    draftKey: readonly ? undefined : `note-${noteId}-title`,
  });
  const details = useAutosave({
    serverValue: note?.details ?? "",
    serverRevision: note?.detailsRevision,
    save: useTextSaver(noteId, "details"),
    canSave: (value) => value.length <= DETAILS_MAX_LENGTH,
    onSaved: (_saved, previous, baseRevision) => pushUndo({ type: "edit details", noteId, textContent: previous, baseRevision }),
    onConflict: refetchNote,
    onDiscarded: (mine, baseRevision) => pushUndo({ type: "edit details", noteId, textContent: mine, baseRevision }),
    draftKey: readonly ? undefined : `note-${noteId}-details`,
  });
  const detailsText = detailsTextOnly(details);
  // Others' saves show here as they happen.
  useNoteChanges(noteId, note);

  // Rich mode only for Markdown it gives back unchanged: a note with a table, a task
  // list, HTML... is edited as Markdown, with the reason shown. The cheap check (marked's lexer,
  // no Quill) decides on load and follows the Markdown as it is typed, a moment after typing
  // stops; while the rich editor is on, its own check decides (it calls onRefuse), so the mode
  // never flips under the learner.
  // marked is fetched only when needed (use-markdown-checks.ts): the server decides on load, writes
  // its reason on the details' element, and the browser reads it back as it hydrates.
  const detailsId = useElementId("note-details");
  const [serverRefusal] = useState(() =>
    typeof window === "undefined"
      ? serverMarkdownChecks()?.richModeRefusal(detailsBody(note?.details ?? ""))
      : (document.getElementById(detailsId)?.getAttribute("data-rich-refusal") ?? undefined),
  );
  const [forcedMarkdown, setForcedMarkdown] = useState(serverRefusal !== undefined);
  // The learner's choice of editor, unless they are already typing into the details (the page
  // shows the rich stand-in until it hydrates, and it can be typed into meanwhile).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the island hydrates.
  useEffect(() => {
    const typingAlready = document.getElementById(detailsId)?.contains(document.activeElement);
    if (localStorage.getItem(EDITOR_MODE_KEY) === "markdown" && !typingAlready) setMode("markdown");
  }, []);
  const effectiveMode: EditorMode = forcedMarkdown ? "markdown" : mode;
  const checks = useMarkdownChecks(effectiveMode === "markdown" || (!editable && detailsText.value !== initialDetails));
  const checkedDetails = useSettledValue(detailsText.value, RICH_MODE_CHECK_DELAY_MS);
  const lexerRefusal = useMemo(
    () =>
      effectiveMode !== "markdown"
        ? undefined
        : checks
          ? checks.richModeRefusal(checkedDetails)
          : checkedDetails === initialDetails
            ? serverRefusal
            : undefined,
    [checks, checkedDetails, effectiveMode, initialDetails, serverRefusal],
  );
  const [quillRefusal, setQuillRefusal] = useState<{ markdown: string; reason: string }>();
  const refusal = lexerRefusal ?? (quillRefusal?.markdown === detailsText.value ? quillRefusal.reason : undefined);
  const refusalId = useId();
  const hydrated = useHydrated();

  if (!realm || !note) return <p className="muted">Loading...</p>;
  const closeDialog = () => setDialog(undefined);
  const renderedDetails =
    detailsText.value === initialDetails || !checks ? initialDetailsHtml : checks.renderMarkdownSafely(detailsText.value, { noteId });
  const markdownEditor = (
    <>
      <MarkdownEditor autosave={detailsText} readonly={!editable} />
      <MathPreview
        markdown={detailsText.value}
        initialMarkdown={initialDetails}
        initialHtml={initialDetailsHtml}
        render={checks?.renderMarkdownSafely}
      />
    </>
  );

  const switchMode = (next: EditorMode) => {
    if (next === "rich" && refusal) return; // the button says why
    details.flush();
    localStorage.setItem(EDITOR_MODE_KEY, next);
    setForcedMarkdown(false);
    setRichChosen(next === "rich");
    setMode(next);
  };
  const refuseRichMode = (markdown: string, reason: string) => {
    setQuillRefusal({ markdown, reason });
    setForcedMarkdown(true);
  };

  async function deleteThisNote() {
    // The notes under it go with it: the confirmation says how many.
    const { count } = await call(api.notes({ note: noteId })["descendant-count"].get());
    const question =
      count === 0 ? "Confirm to delete this note?" : `Confirm to delete this note and its ${count} ${count === 1 ? "note" : "notes"}?`;
    if (!(await confirmPopup(question))) return;
    const affected = await call(api.notes({ note: noteId }).delete.post());
    pushUndo({ type: "delete note", noteId });
    window.location.href = affected[0] ? notePath(affected[0].id) : "/d/notebooks";
  }

  return (
    <article className="note-show" aria-label="note">
      {editable && (
        <div className="note-toolbar" role="toolbar" aria-label="note toolbar">
          <button
            type="button"
            className="icon-button labelled"
            title="Add Child Note"
            aria-label="Add Child Note"
            onClick={() => setDialog("child")}
          >
            {icons.addChild()}
          </button>
          {note.parentId !== null && (
            <button
              type="button"
              className="icon-button labelled"
              title="Add Next Sibling Note"
              aria-label="Add Next Sibling Note"
              onClick={() => setDialog("sibling")}
            >
              {icons.addSibling()}
            </button>
          )}
          <button
            type="button"
            className="icon-button labelled"
            title="search and link note"
            aria-label="search and link note"
            onClick={() => setDialog("search-and-link")}
          >
            {icons.search()}
          </button>
          <WikidataOptions note={note} editable={editable} />
          {!note.noteTopology.linkType && <SuggestTitleButton noteId={noteId} currentTitle={title.value} onAccept={title.onChange} />}
          <AudioToolsButton open={audioTools} onToggle={() => setAudioTools((open) => !open)} />
          {effectiveMode === "rich" ? (
            <button
              type="button"
              className="icon-button labelled"
              title="Edit as markdown"
              aria-label="Edit as markdown"
              onClick={() => switchMode("markdown")}
            >
              {icons.markdown()}
            </button>
          ) : (
            // Not `disabled`: it stays focusable, so a keyboard user reaches it and hears why.
            <button
              type="button"
              className="icon-button labelled"
              title={refusal ?? "Edit as rich content"}
              aria-label="Edit as rich content"
              aria-disabled={refusal ? true : undefined}
              aria-describedby={refusal ? refusalId : undefined}
              onClick={() => switchMode("rich")}
            >
              {icons.richText()}
            </button>
          )}
          <span className="toolbar-spacer" />
          <span className="save-state" aria-live="polite">
            {title.rejected !== undefined ||
            details.rejected !== undefined ||
            title.value.length > TITLE_MAX_LENGTH ||
            details.value.length > DETAILS_MAX_LENGTH
              ? "Not saved"
              : title.conflict || details.conflict
                ? "Not saved: choose a version"
                : title.failed || details.failed
                  ? "Not saved yet, retrying..."
                  : title.saving || details.saving
                    ? "Saving..."
                    : title.dirty || details.dirty
                      ? "Editing..."
                      : ""}
          </span>
          <MoreOptionsMenu
            entries={[
              { label: "Edit Note Image", onSelect: () => setDialog("image") },
              { label: "Edit Note URL", onSelect: () => setDialog("url") },
              { label: "Generate Image with DALL-E", onSelect: () => setDialog("ai-image") },
              { label: "Export...", onSelect: () => setDialog("export") },
              { label: "Note Recall Settings", onSelect: () => setDialog("recall-settings") },
              { label: "Questions for the note", onSelect: () => setDialog("questions") },
              { label: "Import from Obsidian", onSelect: () => setDialog("obsidian-import") },
              { label: "Delete note", onSelect: () => void deleteThisNote(), danger: true },
            ]}
          />
        </div>
      )}
      {!deleted && <NoteConversations noteId={noteId} />}
      {editable && audioTools && (
        <AudioTools
          noteId={noteId}
          details={details.value}
          onDetails={details.onChange}
          onTitle={(suggested) => !note.noteTopology.linkType && title.onChange(suggested)}
        />
      )}
      {deleted && (
        <div className="alert warning" role="alert">
          This note has been deleted
        </div>
      )}
      {note.noteTopology.linkType ? (
        <LinkNoteHeader note={note} editable={editable} />
      ) : (
        <TitleEditor autosave={title} readonly={!editable} />
      )}
      {title.conflict && <EditConflictChoice conflict={title.conflict} what="title" />}
      <NoteAccessoryView noteId={noteId} />
      {detailsParts(details.value).properties.some((entry) => entry.key !== "") && <NoteProperties details={details.value} />}
      {details.conflict && <EditConflictChoice conflict={details.conflict} what="details" />}
      <div className="note-details" id={detailsId} data-rich-refusal={serverRefusal}>
        {effectiveMode === "rich" ? (
          <RichEditor
            autosave={detailsText}
            readonly={!editable}
            onRefuse={refuseRichMode}
            startEditing={richChosen}
            initialHtml={detailsText.value === initialDetails ? initialDetailsHtml : ""}
          />
        ) : !editable && forcedMarkdown ? (
          // Nothing to edit: show what Quill could not, as the page renders Markdown.
          <div
            className="rich-details"
            dir="auto"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's rendering of the details or renderMarkdownSafely's, both sanitised.
            dangerouslySetInnerHTML={{ __html: renderedDetails }}
          />
        ) : (
          <>
            {refusal && (
              <p id={refusalId} className="muted details-mode-note" role="note">
                {refusal}
              </p>
            )}
            {forcedMarkdown && serverRefusal !== undefined && mode === "rich" ? (
              // Details only Markdown can edit (a table, math...): rendered, until a click opens the Markdown editor.
              <MarkdownPreview html={renderedDetails} editor={markdownEditor} />
            ) : (
              markdownEditor
            )}
            {hydrated && <EmbeddedFiles noteId={noteId} details={detailsText.value} />}
          </>
        )}
        {editable && <FieldLimit autosave={details} max={DETAILS_MAX_LENGTH} label="Details" />}
      </div>
      <RecentUpdateIndicator note={note} />
      {!deleted && <NoteInfoBar noteId={noteId} readonly={readonly} />}
      <ChildCards realm={realm} />
      {(realm.inboundReferences ?? []).length > 0 && <ReferencedBy notes={realm.inboundReferences ?? []} />}
      {(dialog === "child" || dialog === "sibling") && <NewNoteDialog noteId={noteId} placement={dialog} onClose={closeDialog} />}
      {dialog === "search-and-link" && <LinkFlow note={note} onClose={closeDialog} />}
      {dialog === "image" && <EditNoteImageDialog noteId={noteId} onClose={closeDialog} />}
      {dialog === "url" && <EditNoteUrlDialog noteId={noteId} onClose={closeDialog} />}
      {dialog === "ai-image" && <GenerateImageDialog noteId={noteId} noteTitle={title.value} onClose={closeDialog} />}
      {dialog === "export" && <ExportDialog noteId={noteId} onClose={closeDialog} />}
      {dialog === "recall-settings" && <RecallSettingsDialog noteId={noteId} onClose={closeDialog} />}
      {dialog === "questions" && <NoteQuestionsDialog noteId={noteId} onClose={closeDialog} />}
      {dialog === "obsidian-import" && realm.notebook && (
        <ObsidianImportDialog notebookId={realm.notebook.id} notebookTitle={realm.notebook.title} onClose={closeDialog} />
      )}
    </article>
  );
}
