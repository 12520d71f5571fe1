import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { changePassword } from "../services/auth/accounts";
import { describeUserAgent, invalidateOtherSessions, listSessions } from "../services/auth/sessions";
import { deleteUserToken, generateUserToken, listUserTokens, revokeTokensOfAccount } from "../services/user-tokens";
import { createProfile, currentUserInfo, presentUser, updateUserSettings } from "../services/users";
import { requireAccount, requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { NoContent } from "./schemas/media";
import { CurrentUserInfo, PasswordChanged, Session, SignedOut, User, UserToken, UserTokens } from "./schemas/people";

/** /api/user: the profile, its settings and the MCP tokens (spec 7 "Users and tokens"). */
export function usersApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api/user" })
    .use(core(ctx))
    .get("/current-user-info", ({ auth }) => currentUserInfo(auth.account, auth.user), { access: "public", response: CurrentUserInfo })
    .get("/", ({ auth }) => presentUser(requireUser(auth)), { access: "signed-in", response: User })
    .post("/", async ({ auth, body }) => presentUser(await createProfile(ctx, requireAccount(auth), body)), {
      access: "account",
      response: User,
      body: t.Object({ name: t.String({ error: "size must be between 1 and 100" }) }, { additionalProperties: true }),
    })
    .patch("/:user", async ({ auth, params, body }) => presentUser(await updateUserSettings(ctx, requireUser(auth), params.user, body)), {
      access: "signed-in",
      response: User,
      params: t.Object({ user: IdParam }),
      body: t.Object(
        {
          name: t.String({ error: "size must be between 1 and 100" }),
          dailyAssimilationCount: t.Optional(t.Integer({ error: "must be a whole number from 0 to 1000" })),
          spaceIntervals: t.Optional(t.String({ error: "must be whole numbers separated by commas, like 0, 1, 2, 4" })),
          // scheduler, desiredRetention and maximumIntervalDays are checked by the service (field errors).
        },
        { additionalProperties: true },
      ),
    })
    .post("/generate-token", ({ auth, body }) => generateUserToken(ctx, requireUser(auth).user, body.label, body.expiresInDays), {
      access: "signed-in",
      response: UserToken,
      // expiresInDays: days the token lives (default 90) or null for never; checked by the service.
      body: t.Object({ label: t.String({ error: "size must be between 1 and 100" }), expiresInDays: t.Optional(t.Unknown()) }),
    })
    .get("/get-tokens", ({ auth }) => listUserTokens(ctx, requireUser(auth).user), { access: "signed-in", response: UserTokens })
    .get(
      "/sessions",
      async ({ auth }) => {
        const account = requireAccount(auth);
        return (await listSessions(ctx, account.id, new Date())).map((session) => ({
          createdAt: session.createdAt?.toISOString() ?? null,
          lastUsedAt: session.lastUsedAt?.toISOString() ?? null,
          browser: describeUserAgent(session.userAgent),
          current: session.id === auth.sessionId,
        }));
      },
      { access: "account", response: t.Array(Session) },
    )
    .post(
      "/sessions/sign-out-others",
      async ({ auth }) => ({
        signedOut: await invalidateOtherSessions(ctx, requireAccount(auth).id, auth.sessionId),
      }),
      { access: "account", response: SignedOut },
    )
    .post(
      "/password",
      async ({ auth, body }) => {
        const account = requireAccount(auth);
        await changePassword(ctx, account.id, body.currentPassword, body.newPassword);
        const revokedTokens = body.revokeTokens === true ? await revokeTokensOfAccount(ctx, account.id) : 0;
        return { signedOut: await invalidateOtherSessions(ctx, account.id, auth.sessionId), revokedTokens };
      },
      {
        access: "account",
        response: PasswordChanged,
        // Signed out is 401 before the body is looked at.
        transform: ({ auth }) => void requireAccount(auth),
        body: t.Object({
          currentPassword: t.String({ error: "Please enter your current password" }),
          newPassword: t.String({ minLength: 8, maxLength: 256, error: "The password must be 8 to 256 characters long" }),
          // "Also revoke my MCP tokens".
          revokeTokens: t.Optional(t.Boolean({ error: "must be true or false" })),
        }),
      },
    )
    .delete(
      "/token/:tokenId",
      async ({ auth, params }) => {
        await deleteUserToken(ctx, requireUser(auth).user, params.tokenId);
        return new Response(null, { status: 204 });
      },
      { access: "signed-in", response: { 204: NoContent }, params: t.Object({ tokenId: IdParam }) },
    );
}
