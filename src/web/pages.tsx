import type { QueryClient } from "@tanstack/react-query";
import { Elysia, t } from "elysia";
import { DEFAULT_ADMIN_TAB, isAdminTab } from "../../islands/admin-dashboard/tabs";
import { answeredQuestionQuery } from "../../islands/answered-question";
import { noteAccessoryQuery } from "../../islands/lib/accessory/queries";
import { assessmentHistoryQuery } from "../../islands/lib/assessment/queries";
import { conversationsQuery } from "../../islands/lib/conversations/queries";
import { noteTitleText } from "../../islands/lib/note-title";
import { notebooksQuery, noteRealmQuery, recentNotesQuery } from "../../islands/lib/notes-queries";
import { userTokensQuery } from "../../islands/lib/queries";
import { bazaarQuery, circleQuery, circlesQuery } from "../../islands/lib/sharing/queries";
import { Island } from "../../views/Island";
import { AdminDashboardPage, CannotAccessPage, FailureReportPage } from "../../views/pages/AdminPages";
import { AssessmentHistoryPage, AssessmentPage } from "../../views/pages/AssessmentPages";
import { HomePage } from "../../views/pages/HomePage";
import { MessageCenterPage } from "../../views/pages/MessageCenterPage";
import { NotebooksPage } from "../../views/pages/NotebooksPage";
import { NotePage } from "../../views/pages/NotePage";
import { RecentPage } from "../../views/pages/RecentPage";
import { BazaarPage, CirclePage, CirclesPage, JoinCirclePage } from "../../views/pages/SharingPages";
import { NotFoundPage, SectionPage, TokensPage } from "../../views/pages/SimplePages";
import { DrawnStatsPage, statsHtml } from "../../views/pages/StatsPage";
import type { MenuSection } from "../../views/shell/AppShell";
import { core } from "../api/core";
import { IdParam, parseId } from "../api/ids";
import { mcpEndpointUrl } from "../api/mcp";
import type { AppContext } from "../context";
import { presentNoteAccessory } from "../services/accessories/presenter";
import { attemptsOf } from "../services/assessments/assessment-service";
import { conversationsOf } from "../services/conversations/conversation-service";
import { NotFoundError } from "../services/errors";
import { showFailureReport } from "../services/failure-reports";
import { notebooksOfUser, showNotebook } from "../services/notebooks";
import { hasTypesetMath, renderNoteDetailsSafely } from "../services/notes/markdown";
import { readNote } from "../services/notes/note-service";
import { recentNotes } from "../services/notes/recent-and-descendants";
import { isAdmin } from "../services/policies";
import { showRecallPrompt } from "../services/recall-prompts/recall-prompt-service";
import { bazaar } from "../services/sharing/bazaar";
import { circleNameForInvitation, circlesOf, showCircle } from "../services/sharing/circles";
import { drawnStatsPage } from "../services/stats/stats";
import { listUserTokens } from "../services/user-tokens";
import type { CurrentUser, UserJson } from "../services/users";
import { prefetchAssimilation } from "./assimilation-prefetch";
import { joinLinkBase } from "./public-url";
import { mathStylesheet, type PageContent, type PageRequest, respondWithPage } from "./render";
import { timeZoneOfRequest } from "./time-zone-cookie";

/**
 * A route of the spec's route table whose feature a later issue builds: the shell with the page's
 * heading and an honest empty state, so links from the menu never lead nowhere.
 */
const UPCOMING: { path: string; title: string; active?: MenuSection; lead?: string; empty: string; signIn?: "optional" }[] = [];

/** Server-rendered pages of the route table (spec 2). */
export function pagesPlugin(ctx: AppContext) {
  const app = new Elysia()
    .use(core(ctx))
    .get("/", ({ auth, request }) =>
      respondWithPage({ ctx, auth, request }, { signIn: "optional" }, (_qc, _current, user) => homePage(user)),
    )
    .get("/d/generate-token", ({ auth, request }) =>
      respondWithPage({ ctx, auth, request }, { signIn: "required" }, async (queryClient, current) => {
        queryClient.setQueryData(userTokensQuery().queryKey, await listUserTokens(ctx, current!.user));
        return { title: "Manage MCP Tokens", content: <TokensPage mcpUrl={mcpEndpointUrl(ctx, request)} /> };
      }),
    )
    .get("/d/notebooks", ({ auth, request }) =>
      respondWithPage({ ctx, auth, request }, { signIn: "required", active: "note" }, (queryClient, current) =>
        notebooksPage(ctx, queryClient, current!),
      ),
    )
    .get("/d/recent", ({ auth, request }) =>
      respondWithPage({ ctx, auth, request }, { signIn: "required" }, async (queryClient, current) => {
        queryClient.setQueryData(recentNotesQuery().queryKey, await recentNotes(ctx, current!));
        return { title: "Recent", content: <RecentPage /> };
      }),
    )
    // every figure is computed here, so it is in the first HTML.
    .get("/d/stats", ({ auth, request }) =>
      respondWithPage({ ctx, auth, request }, { signIn: "required" }, async (_queryClient, current) => ({
        title: "Statistics",
        content: <DrawnStatsPage html={await drawnStatsPage(ctx, current!, timeZoneOfRequest(request), statsHtml)} />,
      })),
    )
    .get("/d/assimilate", ({ auth, request }) =>
      respondWithPage({ ctx, auth, request }, { signIn: "required", active: "assimilate" }, async (queryClient, current) => {
        await prefetchAssimilation(ctx, queryClient, current!, timeZoneOfRequest(request));
        return { title: "Assimilate", content: <Island name="assimilate" /> };
      }),
    )
    .get("/d/recall", ({ auth, request }) =>
      respondWithPage({ ctx, auth, request }, { signIn: "required", active: "recall" }, () => recallPage()),
    )
    .get(
      "/d/answers/:recallPromptId",
      ({ auth, request, params }) =>
        respondWithPage({ ctx, auth, request }, { signIn: "required", active: "recall" }, async (queryClient, current) => {
          const { recallPromptId } = params;
          queryClient.setQueryData(answeredQuestionQuery(recallPromptId).queryKey, await showRecallPrompt(ctx, current!, recallPromptId));
          return { title: "Answered question", content: <Island name="answered-question" props={{ recallPromptId }} /> };
        }),
      { params: t.Object({ recallPromptId: IdParam }) },
    )
    .get("/d/bazaar", ({ auth, request }) =>
      respondWithPage({ ctx, auth, request }, { signIn: "optional", active: "bazaar" }, async (queryClient, current) => {
        queryClient.setQueryData(bazaarQuery().queryKey, await bazaar(ctx, current));
        return { title: "Bazaar", content: <BazaarPage /> };
      }),
    )
    .get("/d/circles", ({ auth, request }) =>
      respondWithPage({ ctx, auth, request }, { signIn: "required", active: "circles" }, async (queryClient, current) => {
        queryClient.setQueryData(circlesQuery().queryKey, await circlesOf(ctx, current!));
        return { title: "My Circles", content: <CirclesPage /> };
      }),
    )
    .get(
      "/d/circles/:circleId",
      ({ auth, request, params }) =>
        respondWithPage({ ctx, auth, request }, { signIn: "required", active: "circles" }, async (queryClient, current) => {
          const circle = await showCircle(ctx, current, params.circleId);
          queryClient.setQueryData(circleQuery(circle.id).queryKey, circle);
          return {
            title: `Circle: ${circle.name}`,
            content: <CirclePage circleId={circle.id} joinLinkBase={joinLinkBase(ctx, request)} />,
          };
        }),
      { params: t.Object({ circleId: IdParam }) },
    )
    .get("/d/message-center/:conversationId?", ({ auth, request, params }) =>
      respondWithPage({ ctx, auth, request }, { signIn: "required", active: "messages" }, async (queryClient, current) => {
        queryClient.setQueryData(conversationsQuery().queryKey, await conversationsOf(ctx, current!));
        const conversationId = params.conversationId ? parseId(params.conversationId) : undefined;
        return { title: "Message Center", content: <MessageCenterPage conversationId={conversationId} /> };
      }),
    )
    .get(
      "/d/assessment/notebook/:notebookId",
      ({ auth, request, params }) =>
        respondWithPage({ ctx, auth, request }, { signIn: "required" }, async (_queryClient, current) => {
          const notebook = await showNotebook(ctx, current, params.notebookId);
          const title = `Assessment For ${notebook.title}`;
          return { title, content: <AssessmentPage title={title} notebookId={notebook.id} /> };
        }),
      { params: t.Object({ notebookId: IdParam }) },
    )
    .get("/d/assessmentAndCertificateHistory", ({ auth, request }) =>
      respondWithPage({ ctx, auth, request }, { signIn: "required" }, async (queryClient, current) => {
        queryClient.setQueryData(assessmentHistoryQuery().queryKey, await attemptsOf(ctx, current!));
        return { title: "My Assessment and Certificate History", content: <AssessmentHistoryPage /> };
      }),
    )
    .get("/d/admin-dashboard/:tab?", ({ auth, request, params }) => {
      const tab = params.tab ?? DEFAULT_ADMIN_TAB;
      if (!isAdminTab(tab)) throw new NotFoundError("Page");
      return adminPage({ ctx, auth, request }, () => ({ title: "Admin Dashboard", content: <AdminDashboardPage tab={tab} /> }));
    })
    .get(
      "/d/failure-report-list/show/:failureReportId",
      ({ auth, request, params }) =>
        adminPage({ ctx, auth, request }, async (current) => {
          const view = await showFailureReport(ctx, current, params.failureReportId);
          return { title: `Failure report: ${view.failureReport.errorName}`, content: <FailureReportPage view={view} /> };
        }),
      { params: t.Object({ failureReportId: IdParam }) },
    )
    // Signed out, the visitor signs in (or signs up and creates a profile) and comes back here.
    .get("/d/circles/join/:invitationCode?", ({ auth, request, params }) =>
      respondWithPage({ ctx, auth, request }, { signIn: "required", active: "circles" }, async () => {
        const invitationCode = (params.invitationCode ?? "").slice(0, 100);
        const invitedTo = invitationCode ? await circleNameForInvitation(ctx, invitationCode) : undefined;
        return { title: "Join a circle", content: <JoinCirclePage invitationCode={invitationCode} invitedTo={invitedTo} /> };
      }),
    )
    // The note page is /n{noteId}: one path segment "n" followed by digits.
    .get("/:notePath", ({ auth, request, params }) => {
      const noteId = params.notePath.startsWith("n") ? parseId(params.notePath.slice(1)) : undefined;
      if (noteId === undefined) throw new NotFoundError("Page");
      // Open to visitors: a bazaar notebook's notes are readable signed out; anything else asks to sign in.
      return respondWithPage({ ctx, auth, request }, { signIn: "optional", active: "note" }, (queryClient, current) =>
        notePage(ctx, queryClient, current, noteId),
      );
    });
  for (const route of UPCOMING) {
    app.get(route.path, ({ auth, request }) =>
      respondWithPage({ ctx, auth, request }, { signIn: route.signIn ?? "required", active: route.active }, () => ({
        title: route.title,
        content: <SectionPage title={route.title} lead={route.lead} empty={route.empty} />,
      })),
    );
  }
  return app;
}

/*
 * The content of the pages the bench measures, built from their data here so that the
 * bench renders the very same view tree with the same data for its bare renderToString baseline.
 */

export function homePage(user: UserJson | undefined): PageContent {
  return { title: "Engram", content: <HomePage user={user} /> };
}

export async function notebooksPage(ctx: AppContext, queryClient: QueryClient, current: CurrentUser): Promise<PageContent> {
  queryClient.setQueryData(notebooksQuery().queryKey, await notebooksOfUser(ctx, current));
  return { title: "Notebooks", content: <NotebooksPage /> };
}

export function recallPage(): PageContent {
  return { title: "Recall", content: <Island name="recall" /> };
}

/** /n{noteId}: the note's realm (its first page of children), accessory and rendered details. */
export async function notePage(
  ctx: AppContext,
  queryClient: QueryClient,
  current: CurrentUser | undefined,
  noteId: number,
): Promise<PageContent> {
  const { realm, note, ancestors, readonly, subscribed } = await readNote(ctx, current, noteId);
  const detailsHtml = renderNoteDetailsSafely(note.details, { noteId: note.id });
  queryClient.setQueryData(noteRealmQuery(noteId).queryKey, realm);
  queryClient.setQueryData(noteAccessoryQuery(noteId).queryKey, await presentNoteAccessory(ctx, note, ancestors));
  return {
    title: noteTitleText(realm.note.noteTopology),
    content: (
      <NotePage
        realm={realm}
        readonly={readonly}
        subscribed={subscribed}
        rootNoteId={ancestors[0]?.id ?? note.id}
        ancestors={ancestors.map((a) => ({ id: a.id, title: a.title }))}
        detailsHtml={detailsHtml}
        mathStylesheet={hasTypesetMath(detailsHtml) ? mathStylesheet() : undefined}
      />
    ),
  };
}

/** An admin-only page: sign in first; a signed-in non-admin gets 403 and "It seems you cannot access this page.". */
function adminPage(page: PageRequest, build: (current: CurrentUser) => PageContent | Promise<PageContent>) {
  if (page.auth.account && page.auth.user && !isAdmin({ account: page.auth.account, user: page.auth.user })) {
    return respondWithPage(page, { signIn: "required", status: 403 }, () => ({ title: "Admin Dashboard", content: <CannotAccessPage /> }));
  }
  return respondWithPage(page, { signIn: "required" }, (_queryClient, current) => build(current!));
}

/** The 404 page for any path outside the route table. */
export function notFoundPage(page: PageRequest) {
  return respondWithPage(page, { signIn: "optional", status: 404 }, () => ({ title: "Page not found", content: <NotFoundPage /> }));
}
