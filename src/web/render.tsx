import { dehydrate, type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { menuBadgeQuery } from "../../islands/lib/learning-queries";
import type { PageConfig } from "../../islands/lib/page-config";
import { currentUserInfoQuery } from "../../islands/lib/queries";
import { newQueryClient } from "../../islands/runtime/query-client";
import { Document } from "../../views/Document";
import { IslandCollector, IslandCollectorContext } from "../../views/Island";
import { NewUserPage } from "../../views/pages/SimplePages";
import { AppShell, type MenuSection } from "../../views/shell/AppShell";
import type { Auth } from "../api/authentication";
import { isProduction } from "../config";
import type { AppContext } from "../context";
import { type OperationJson, operationJson } from "../operations";
import { UnauthorizedError } from "../services/errors";
import { menuBadges } from "../services/menu-badges";
import { type CurrentUser, currentUserInfo, presentUser, type UserJson } from "../services/users";
import { type AssetManifest, assetVersionOf, loadAssetManifest } from "./assets";
import { timeZoneOfRequest } from "./time-zone-cookie";

export interface PageRequest {
  ctx: AppContext;
  auth: Auth;
  request: Request;
}

export interface PageContent {
  title: string;
  content: ReactNode;
}

export interface PageOptions {
  /** required: signed-out visitors are sent to sign in; optional: anyone may see it. */
  signIn: "required" | "optional";
  active?: MenuSection;
  status?: number;
}

let manifest: AssetManifest | undefined;
function assets() {
  manifest ??= loadAssetManifest();
  return manifest;
}

export function loginPath(ctx: AppContext) {
  return isProduction(ctx.config) ? "/users/sign-in" : "/users/identify";
}

export function pageConfig(ctx: AppContext, auth: Auth = {}): PageConfig {
  return {
    mode: ctx.config.mode,
    loginPath: loginPath(ctx),
    version: assetVersionOf(assets()),
    mathCss: assets().mathCss,
    ...(auth.user ? { user: String(auth.user.id) } : {}),
  };
}

/** KaTeX's stylesheet, for a page whose server-rendered HTML holds math. */
export const mathStylesheet = () => assets().mathCss;

/**
 * Prefetches what every page's shell shows: who is signed in and the menu badges, counted in
 * the reader's time zone (from the engram_tz cookie), kept between pages until they change.
 */
export async function prefetchShell(queryClient: QueryClient, page: PageRequest) {
  const { ctx, auth, request } = page;
  queryClient.setQueryData(currentUserInfoQuery().queryKey, currentUserInfo(auth.account, auth.user));
  const current = auth.account && auth.user ? { account: auth.account, user: auth.user } : undefined;
  const timeZone = timeZoneOfRequest(request);
  const badges = current ? await menuBadges(ctx, current, timeZone) : { assimilate: 0, recall: 0, messages: 0 };
  for (const kind of ["assimilate", "recall", "messages"] as const) {
    queryClient.setQueryData(menuBadgeQuery(kind).queryKey, badges[kind]);
  }
}

export interface DocumentOptions {
  title: string;
  active?: MenuSection;
  status?: number;
  queryClient: QueryClient;
  content: ReactNode;
}

/** The imports and exports the signed-in user may follow in the shell (none when signed out). */
export async function shellOperations(page: PageRequest): Promise<OperationJson[] | undefined> {
  const user = page.auth.user;
  return user ? (await page.ctx.stores.operations.visible(user.id)).map(operationJson) : undefined;
}

/**
 * A whole page as one React element: the document, the shell (with the shell's operations,
 * shellOperations) and the content, with the query cache for the islands. renderDocument renders
 * it to HTML; the bench renders it alone for the bare baseline of the same view tree with the same data.
 */
export function documentElement(page: PageRequest, options: DocumentOptions, operations: OperationJson[] | undefined) {
  const { ctx, auth, request } = page;
  const url = new URL(request.url);
  const user = auth.account && auth.user ? presentUser({ account: auth.account, user: auth.user }) : undefined;
  const collector = new IslandCollector();
  const { css, early, islands } = assets();
  return (
    <IslandCollectorContext.Provider value={collector}>
      <Document
        title={options.title}
        css={css}
        earlyScript={early}
        islandScripts={islands}
        config={pageConfig(ctx, auth)}
        dehydratedState={dehydrate(options.queryClient)}
      >
        <QueryClientProvider client={options.queryClient}>
          <AppShell
            user={user}
            signedIn={!!auth.account}
            loginPath={loginPath(ctx)}
            currentPath={url.pathname + url.search}
            active={options.active}
            testability={!isProduction(ctx.config)}
            operations={operations}
          >
            {options.content}
          </AppShell>
        </QueryClientProvider>
      </Document>
    </IslandCollectorContext.Provider>
  );
}

/**
 * Renders a whole page: the document, the shell and the content, with the query cache for the
 * islands. One renderToString, not a stream: every island is rendered to a string anyway (Island),
 * nothing in the shell suspends, and a stream cost a third more server time per page
 * for bytes that are all ready at once. A render error throws, and the error page answers.
 */
export async function renderDocument(page: PageRequest, options: DocumentOptions) {
  const html = `<!DOCTYPE html>${renderToString(documentElement(page, options, await shellOperations(page)))}`;
  return new Response(html, {
    status: options.status ?? 200,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}

/**
 * Answers a page of the route table. A signed-out visitor of a sign-in-only page is sent to sign
 * in (and back afterwards); a signed-in identity without a profile gets the new-user form.
 */
export async function respondWithPage(
  page: PageRequest,
  options: PageOptions,
  build: (queryClient: QueryClient, current: CurrentUser | undefined, user: UserJson | undefined) => PageContent | Promise<PageContent>,
): Promise<Response> {
  const { ctx, auth, request } = page;
  const url = new URL(request.url);
  if (options.signIn === "required" && !auth.account) {
    return redirect(`${loginPath(ctx)}?from=${encodeURIComponent(url.pathname + url.search)}`);
  }
  const queryClient = newQueryClient();
  await prefetchShell(queryClient, page);
  if (auth.account && !auth.user) {
    return renderDocument(page, { title: "Welcome", queryClient, content: <NewUserPage /> });
  }
  const current = auth.account && auth.user ? { account: auth.account, user: auth.user } : undefined;
  let built: PageContent;
  try {
    built = await build(queryClient, current, current && presentUser(current));
  } catch (error) {
    // A page open to visitors (a bazaar note) that turns out to need sign-in: sign in, then come back.
    if (error instanceof UnauthorizedError && !auth.account) {
      return redirect(`${loginPath(ctx)}?from=${encodeURIComponent(url.pathname + url.search)}`);
    }
    throw error;
  }
  return renderDocument(page, { ...built, active: options.active, status: options.status, queryClient });
}

/** A redirect to a path of this site (302 for GET, 303 after a form POST). */
export function redirect(location: string, status = 302) {
  return new Response(null, { status, headers: { location } });
}

/** Only paths on this site are followed after sign-in, never another origin. */
export function safeFrom(from: string | null | undefined): string {
  if (!from?.startsWith("/") || from.startsWith("//") || from.startsWith("/\\")) return "/";
  return from;
}
