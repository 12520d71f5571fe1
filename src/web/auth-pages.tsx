import { type Cookie, Elysia, t } from "elysia";
import { newQueryClient } from "../../islands/runtime/query-client";
import { IdentifyPage, ResetPasswordPage, SignInPage, SignUpPage } from "../../views/pages/AuthPages";
import { SESSION_COOKIE, sessionCookie } from "../api/authentication";
import { core } from "../api/core";
import { isProduction } from "../config";
import type { AppContext } from "../context";
import { passwordResetAccount, resetPassword } from "../services/admin/users";
import { signIn, signUp } from "../services/auth/accounts";
import { identifyWithBasicAuth } from "../services/auth/basic-auth";
import { clientAddressOf } from "../services/auth/client-address";
import { createSession, invalidateSession } from "../services/auth/sessions";
import { DomainError, ValidationError } from "../services/errors";
import { redirect, renderDocument, safeFrom } from "./render";

const credentials = t.Object({ username: t.Optional(t.String()), password: t.Optional(t.String()) });
const fromQuery = t.Object({ from: t.Optional(t.String()) });

type FormOutcome = { errors?: Record<string, string>; message?: string; status: number };

/** Field errors and messages of a failed sign-in or sign-up, for re-rendering the form. */
function outcomeOf(error: unknown): FormOutcome {
  if (error instanceof ValidationError) return { errors: error.errors, status: 400 };
  if (error instanceof DomainError) return { message: error.message, status: error.status };
  throw error;
}

/** The client's address: the socket's, or X-Forwarded-For's when the socket is a trusted proxy (ENGRAM_TRUSTED_PROXIES). */
export function clientAddress(ctx: AppContext, request: Request, server: { requestIP(r: Request): { address: string } | null } | null) {
  return clientAddressOf(server?.requestIP(request)?.address, request.headers.get("x-forwarded-for"), ctx.config.trustedProxies);
}

/**
 * Sign-in, sign-up, the non-production identify page and logout. Plain form posts that set the
 * session cookie and redirect; failures re-render the form with its field errors.
 */
export function authPagesPlugin(ctx: AppContext) {
  const emptyAuth = {};
  const page = (request: Request, title: string, content: React.ReactNode, status = 200) =>
    renderDocument({ ctx, auth: emptyAuth, request }, { title, content, status, queryClient: newQueryClient() });

  const startSession = async (request: Request, cookie: Record<string, Cookie<unknown>>, accountId: number) => {
    const session = await createSession(ctx, accountId, new Date(), request.headers.get("user-agent"));
    cookie[SESSION_COOKIE]!.set(sessionCookie(ctx, request, session.token, session.expiresAt));
  };

  const app = new Elysia()
    .use(core(ctx))
    .get(
      "/users/sign-in",
      ({ auth, request, query }) =>
        auth.account ? redirect(safeFrom(query.from)) : page(request, "Sign in", <SignInPage from={safeFrom(query.from)} />),
      { query: fromQuery },
    )
    .post(
      "/users/sign-in",
      async ({ request, body, query, cookie, server }) => {
        const from = safeFrom(query.from);
        try {
          const account = await signIn(ctx, body.username ?? "", body.password ?? "", clientAddress(ctx, request, server));
          await startSession(request, cookie, account.id);
          return redirect(from, 303);
        } catch (error) {
          const outcome = outcomeOf(error);
          return page(
            request,
            "Sign in",
            <SignInPage from={from} username={body.username} errors={outcome.errors} message={outcome.message} />,
            outcome.status,
          );
        }
      },
      { body: credentials, query: fromQuery },
    )
    .get(
      "/users/sign-up",
      async ({ auth, request, query }) => {
        if (auth.account) return redirect(safeFrom(query.from));
        const firstAccount = await ctx.stores.accounts.none();
        return page(request, "Create an account", <SignUpPage from={safeFrom(query.from)} firstAccount={firstAccount} />);
      },
      { query: fromQuery },
    )
    .post(
      "/users/sign-up",
      async ({ request, body, query, cookie, server }) => {
        const from = safeFrom(query.from);
        try {
          const account = await signUp(ctx, body.username ?? "", body.password ?? "", clientAddress(ctx, request, server));
          await startSession(request, cookie, account.id);
          return redirect(from, 303);
        } catch (error) {
          const outcome = outcomeOf(error);
          return page(
            request,
            "Create an account",
            <SignUpPage from={from} username={body.username} errors={outcome.errors} message={outcome.message} firstAccount={false} />,
            outcome.status,
          );
        }
      },
      { body: credentials, query: fromQuery },
    )
    // A one-time link from an admin ("Users" tab, or `engram admin reset-password`): a new password, then sign in.
    .get("/users/reset-password/:token", async ({ request, params }) =>
      page(
        request,
        "Reset your password",
        <ResetPasswordPage token={params.token} login={(await passwordResetAccount(ctx, params.token))?.externalIdentifier} />,
      ),
    )
    .post(
      "/users/reset-password/:token",
      async ({ request, params, body }) => {
        try {
          await resetPassword(ctx, params.token, body.newPassword ?? "");
          return redirect("/users/sign-in", 303);
        } catch (error) {
          const outcome = outcomeOf(error);
          const login = (await passwordResetAccount(ctx, params.token))?.externalIdentifier;
          return page(
            request,
            "Reset your password",
            <ResetPasswordPage token={params.token} login={login} errors={outcome.errors} message={outcome.message} />,
            outcome.status,
          );
        }
      },
      { body: t.Object({ newPassword: t.Optional(t.String()) }) },
    )
    .post("/logout", async ({ request, cookie }) => {
      const token = cookie[SESSION_COOKIE]?.value;
      if (typeof token === "string" && token) await invalidateSession(ctx, token);
      cookie[SESSION_COOKIE]?.remove();
      const fromBrowser =
        request.headers.get("sec-fetch-mode") === "navigate" || (request.headers.get("accept") ?? "").includes("text/html");
      return fromBrowser ? redirect("/d/bazaar", 303) : new Response(null, { status: 204 });
    });

  if (!isProduction(ctx.config)) {
    app
      .get("/users/identify", ({ request, query }) => page(request, "Please sign in", <IdentifyPage from={safeFrom(query.from)} />), {
        query: fromQuery,
      })
      .post(
        "/users/identify",
        async ({ request, body, query, cookie }) => {
          const from = safeFrom(query.from);
          const account = await identifyWithBasicAuth(ctx, body.username ?? "", body.password ?? "");
          if (!account) {
            return page(
              request,
              "Please sign in",
              <IdentifyPage from={from} username={body.username} message="Wrong username or password" />,
              401,
            );
          }
          await startSession(request, cookie, account.id);
          return redirect(from, 303);
        },
        { body: credentials, query: fromQuery },
      );
  }
  return app;
}
