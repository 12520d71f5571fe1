import { Elysia } from "elysia";
import faviconPath from "../assets/favicon.svg" with { type: "file" };
import { newQueryClient } from "../islands/runtime/query-client";
import packageJson from "../package.json" with { type: "json" };
import { ErrorPage } from "../views/pages/SimplePages";
import type { Auth } from "./api/authentication";
import { core } from "./api/core";
import { errorAnswer } from "./api/errors";
import { apiPlugins } from "./api/index";
import { engramOpenApi, OpenApiDocumentSchema } from "./api/openapi";
import { checkQueryLength, parseBodyWithLimits } from "./api/request-limits";
import { testabilityApi } from "./api/testability";
import { isProduction } from "./config";
import type { AppContext } from "./context";
import { jobWorker } from "./jobs/plugin";
import { ForbiddenError } from "./services/errors";
import { declaredAccess } from "./services/policies/api-access";
import { iconResponse, manifestResponse, serviceWorkerResponse } from "./web/app-manifest";
import { assetResponse, loadAssetManifest } from "./web/assets";
import { authPagesPlugin } from "./web/auth-pages";
import { compression, compressResponse } from "./web/compression";
import { isMcpRebinding } from "./web/dns-rebinding";
import { notFoundPage, pagesPlugin } from "./web/pages";
import { renderDocument } from "./web/render";
import { isCrossSiteWrite, isMcpEndpoint, isRefusedMcpOrigin, SECURITY_HEADERS } from "./web/security";

/** Largest request body accepted: an Obsidian vault (100 MiB zip) with its multipart framing; each route has its own limit (request-limits.ts). */
export const MAX_REQUEST_BODY_BYTES = 101 * 1024 * 1024;

const isApiPath = (request: Request) => new URL(request.url).pathname.startsWith("/api/");

/** A route that forgot its `access` would be open to anyone: the app refuses to start instead. */
function assertEveryApiRouteDeclaresAccess(routes: { method: string; path: string; hooks?: unknown }[]) {
  const undeclared = routes.filter((route) => route.path.startsWith("/api/") && !declaredAccess(route));
  if (undeclared.length > 0) {
    throw new Error(`These /api routes declare no access level: ${undeclared.map((r) => `${r.method} ${r.path}`).join(", ")}`);
  }
}

/** Builds the whole Engram app: pages, /api, assets, security headers and the error contract. */
export function createApp(ctx: AppContext) {
  const manifest = loadAssetManifest();
  const app = new Elysia({ serve: { maxRequestBodySize: MAX_REQUEST_BODY_BYTES } })
    .onRequest(({ request, set, server }) => {
      Object.assign(set.headers, SECURITY_HEADERS);
      if (isCrossSiteWrite(ctx, request)) throw new ForbiddenError("Cross-site request refused");
      if (isMcpRebinding(ctx, request, server)) throw new ForbiddenError("This host name does not name this Engram");
      if (isMcpEndpoint(request) && isRefusedMcpOrigin(ctx, request)) throw new ForbiddenError("This origin may not use the MCP endpoint");
      checkQueryLength(request.url);
    })
    // Every body is read within its route's limits before validation (api/request-limits.ts).
    .onParse({ as: "global" }, ({ request }, contentType) => parseBodyWithLimits(request, contentType))
    .onError({ as: "global" }, async (context) => {
      const { code, error, request, set } = context;
      const auth = (context as { auth?: Auth }).auth;
      Object.assign(set.headers, SECURITY_HEADERS);
      const { status, body } = errorAnswer(ctx, code, error);
      if (isApiPath(request) || request.method !== "GET") {
        return new Response(JSON.stringify(body), {
          status,
          headers: { ...SECURITY_HEADERS, "content-type": "application/json; charset=utf-8" },
        });
      }
      const page = { ctx, auth: auth ?? {}, request };
      // An unknown path has no route, so the compression hook below does not see its page.
      if (status === 404) return compressResponse(request, await notFoundPage(page));
      return renderDocument(page, {
        title: "Error",
        status,
        queryClient: newQueryClient(),
        content: <ErrorPage message={status === 500 ? "An unexpected error occurred. It has been reported." : body.message} />,
      });
    })
    // Brotli/gzip for every text answer (event streams excepted): web/compression.ts.
    .use(compression())
    .use(core(ctx))
    // The background job worker runs while the app listens (embedding notes after they change).
    .use(jobWorker(ctx))
    .get(
      "/assets/*",
      ({ request }) =>
        assetResponse(manifest, new URL(request.url).pathname, request.headers.get("accept-encoding")) ??
        notFoundPage({ ctx, auth: {}, request }),
    )
    .get(
      "/favicon.svg",
      () =>
        new Response(Bun.file(faviconPath), {
          headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" },
        }),
    )
    // Installable and offline (web/app-manifest.ts): the manifest, its icons, the service worker.
    .get("/manifest.webmanifest", () => manifestResponse())
    .get("/icons/:icon", ({ request }) => iconResponse(new URL(request.url).pathname) ?? notFoundPage({ ctx, auth: {}, request }))
    .get("/sw.js", ({ request }) => serviceWorkerResponse(manifest) ?? notFoundPage({ ctx, auth: {}, request }))
    .use(apiPlugins(ctx))
    .use(authPagesPlugin(ctx))
    .use(pagesPlugin(ctx));
  if (!isProduction(ctx.config)) app.use(testabilityApi(ctx));
  // Engram's own OpenAPI document, built from the routes the first time it is asked for.
  let openApi: ReturnType<typeof engramOpenApi> | undefined;
  app.get("/api/openapi.json", () => (openApi ??= engramOpenApi(app, packageJson.version)), {
    access: "public",
    response: OpenApiDocumentSchema,
  });
  assertEveryApiRouteDeclaresAccess(app.routes);
  return app;
}
