import type { AppContext } from "../../context";
import { isShuttingDown, onShutdown } from "../../lifecycle";
import { ServiceUnavailableError, TooManyRequestsError } from "../errors";
import { authorizeRead, notebookAccess } from "../policies";
import type { CurrentUser } from "../users";
import { requireNoteWithNotebook } from "./rows";

/**
 * Live note changes: an open note page listens (GET /api/notes/:note/changes, server-sent events)
 * and hears, as soon as anyone saves the note's title or details, their new revisions, so it
 * fetches the note again and shows the change (merged with what is being typed there). The
 * events carry revisions only, never text: the page reads the text through the note's usual
 * endpoint. Every event asks the policy again, so a reader who lost access hears nothing more.
 */
/** Told that the note may have changed (the stream sends nothing when its revisions are those it sent last). */
type Listener = () => void;

const listenersOf = new WeakMap<AppContext, Map<number, Set<Listener>>>();
const streamsPerUser = new WeakMap<AppContext, Map<number, number>>();

/** At most this many open streams per user (a page opens one; a tab left open keeps it). */
export const MAX_STREAMS_PER_USER = 30;
/** And at most this many in all (signed-out bazaar readers have no user to count by). */
export const MAX_STREAMS = 5000;
const openStreams = new WeakMap<AppContext, { count: number }>();
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 25_000;
/** How long a browser waits before it reconnects a dropped stream. */
const RECONNECT_MS = 3000;

function listeners(ctx: AppContext): Map<number, Set<Listener>> {
  const map = listenersOf.get(ctx) ?? new Map<number, Set<Listener>>();
  listenersOf.set(ctx, map);
  return map;
}

/** Tells the note's listeners that its title or details were saved (after the write committed). */
export function noteTextSaved(ctx: AppContext, noteId: number) {
  for (const listener of listeners(ctx).get(noteId) ?? []) listener();
}

/** How often a process with open notes looks for saves made through another process. */
const WATCH_MS = 1000;
const watchers = new WeakMap<
  AppContext,
  { seen: Map<number, string>; busy: boolean; timer: ReturnType<typeof setInterval>; stopWaking: () => void }
>();

/**
 * Saves through this process reach its listeners at once (noteTextSaved); saves through another
 * process on the same database are seen here, as changed revisions of the notes open in this one,
 * every WATCH_MS and at once when the database wakes the watch (PostgreSQL's NOTIFY). The watch
 * runs only while some note is open.
 */
function watchOtherProcesses(ctx: AppContext) {
  if (watchers.has(ctx)) return;
  const watcher = {
    seen: new Map<number, string>(),
    busy: false,
    timer: setInterval(() => void tick(), WATCH_MS),
    // PostgreSQL's NOTIFY of a save through any process: look now rather than at the next tick.
    stopWaking: ctx.database.onWake("note-revisions", () => void tick()),
  };
  watcher.timer.unref?.();
  watchers.set(ctx, watcher);
  const tick = async () => {
    const open = listeners(ctx);
    if (open.size === 0) {
      clearInterval(watcher.timer);
      watcher.stopWaking();
      watchers.delete(ctx);
      return;
    }
    if (watcher.busy) return;
    watcher.busy = true;
    try {
      const noteIds = [...open.keys()];
      const now = new Map(
        (await ctx.stores.noteRevisions.revisionsOf(noteIds)).map((row) => [row.id, `${row.titleRevision}/${row.detailsRevision}`]),
      );
      for (const noteId of noteIds) {
        const revisions = now.get(noteId) ?? "gone";
        if (watcher.seen.get(noteId) === revisions) continue;
        watcher.seen.set(noteId, revisions);
        for (const listener of open.get(noteId) ?? []) listener();
      }
      for (const noteId of watcher.seen.keys()) if (!open.has(noteId)) watcher.seen.delete(noteId);
    } catch {
      // The database is closing (shutdown, a test's end): the streams close with it.
    } finally {
      watcher.busy = false;
    }
  };
}

export interface NoteRevisionsEvent {
  titleRevision: number;
  detailsRevision: number;
}

function countStream(ctx: AppContext, userId: number | undefined, by: 1 | -1) {
  if (userId === undefined) return;
  const counts = streamsPerUser.get(ctx) ?? new Map<number, number>();
  streamsPerUser.set(ctx, counts);
  const next = (counts.get(userId) ?? 0) + by;
  if (next <= 0) counts.delete(userId);
  else counts.set(userId, next);
}

/** The event stream of one note for one reader (who must be allowed to read it now and at each event). */
export async function noteChangeStream(ctx: AppContext, current: CurrentUser | undefined, noteId: number): Promise<Response> {
  const { notebook } = await requireNoteWithNotebook(ctx, noteId);
  await authorizeRead(ctx, current, notebook);
  if (isShuttingDown(ctx)) throw new ServiceUnavailableError("Engram is restarting");
  const userId = current?.user.id;
  const streams = openStreams.get(ctx) ?? { count: 0 };
  openStreams.set(ctx, streams);
  if (streams.count >= MAX_STREAMS || (userId !== undefined && (streamsPerUser.get(ctx)?.get(userId) ?? 0) >= MAX_STREAMS_PER_USER)) {
    throw new TooManyRequestsError("Too many open notes");
  }
  const encoder = new TextEncoder();
  let end = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const write = (text: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          end();
        }
      };
      const send = (event: string, data: unknown) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      const noteListeners = listeners(ctx).get(noteId) ?? new Set<Listener>();
      listeners(ctx).set(noteId, noteListeners);
      let lastSent = "";
      const check = async () => {
        if (!open) return;
        // The policy decides each event: membership, sharing or the note's notebook may have changed.
        const found = await ctx.stores.notes.noteWithNotebook(noteId);
        if (!open) return;
        if (!found || (await notebookAccess(ctx, current, found.notebook)) === "none") {
          send("closed", { reason: "You can no longer read this note" });
          end();
          return;
        }
        const row = found.note;
        const revisions = `${row.titleRevision}/${row.detailsRevision}`;
        // A save is told twice in any order (by its own process, and by the watch of other
        // processes' saves): the page hears each revision once.
        if (revisions === lastSent) return;
        lastSent = revisions;
        send("revisions", { titleRevision: row.titleRevision, detailsRevision: row.detailsRevision } satisfies NoteRevisionsEvent);
      };
      // One check at a time, in the order they were asked for: each compares with what the last one sent.
      let checks = Promise.resolve();
      const onSaved: Listener = () => {
        checks = checks.then(check).catch(() => end());
      };
      const keepAlive = setInterval(() => write(": keep-alive\n\n"), KEEP_ALIVE_MS);
      const leaveShutdown = onShutdown(ctx, "note change stream", () => {
        send("shutdown", { reason: "Engram is restarting" });
        end();
      });
      end = () => {
        if (!open) return;
        open = false;
        noteListeners.delete(onSaved);
        if (noteListeners.size === 0 && listeners(ctx).get(noteId) === noteListeners) listeners(ctx).delete(noteId);
        clearInterval(keepAlive);
        leaveShutdown();
        countStream(ctx, userId, -1);
        streams.count--;
        try {
          controller.close();
        } catch {
          // the browser went away first
        }
      };
      noteListeners.add(onSaved);
      watchOtherProcesses(ctx);
      countStream(ctx, userId, 1);
      streams.count++;
      write(`retry: ${RECONNECT_MS}\n\n`);
      onSaved(); // where the note is now: a reconnecting page catches up on what it missed
    },
    cancel() {
      end();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      // Proxies (nginx) must not hold events back.
      "x-accel-buffering": "no",
    },
  });
}
