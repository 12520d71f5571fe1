import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { dataUpgrade } from "../services/admin/data-upgrade";
import { adminPasswordReset, changeAccount, listAccounts } from "../services/admin/users";
import { deleteFailureReports, listFailureReports, showFailureReport } from "../services/failure-reports";
import { requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import {
  AccountForAdmin,
  DataUpgrade,
  FailureReport,
  FailureReportForView,
  FailureReportsDeleted,
  PasswordResetLink,
} from "./schemas/admin";

/** Admin-only calls: failure reports, the data upgrade (spec 7 "Admin") and the instance's users. */
export function adminApi(ctx: AppContext) {
  return (
    new Elysia({ prefix: "/api" })
      .use(core(ctx))
      .get("/failure-reports", ({ auth }) => listFailureReports(ctx, requireUser(auth)), {
        access: "admin",
        response: t.Array(FailureReport),
      })
      .get("/failure-reports/:failureReport", ({ auth, params }) => showFailureReport(ctx, requireUser(auth), params.failureReport), {
        access: "admin",
        response: FailureReportForView,
        params: t.Object({ failureReport: IdParam }),
      })
      // The ids come as a list, or as {ids: [...]}; the service checks them.
      .delete(
        "/failure-reports/delete",
        ({ auth, body }) => deleteFailureReports(ctx, requireUser(auth), Array.isArray(body) ? body : body.ids),
        {
          access: "admin",
          response: FailureReportsDeleted,
          // The service checks the ids themselves (positive, at most 10,000).
          body: t.Union([t.Array(t.Unknown()), t.Object({ ids: t.Unknown() })], { error: "must be a list of failure report ids" }),
        },
      )
      .get("/data_upgrade", ({ auth }) => dataUpgrade(ctx, requireUser(auth)), { access: "admin", response: DataUpgrade })
      // Beyond the reference: the instance's accounts ("Users" tab).
      .get("/admin/users", ({ auth }) => listAccounts(ctx, requireUser(auth)), { access: "admin", response: t.Array(AccountForAdmin) })
      .patch("/admin/users/:account", ({ auth, params, body }) => changeAccount(ctx, requireUser(auth), params.account, body), {
        access: "admin",
        response: AccountForAdmin,
        params: t.Object({ account: IdParam }),
        body: t.Object({ admin: t.Optional(t.Unknown()), disabled: t.Optional(t.Unknown()) }),
      })
      .post("/admin/users/:account/password-reset", ({ auth, params }) => adminPasswordReset(ctx, requireUser(auth), params.account), {
        access: "admin",
        response: PasswordResetLink,
        params: t.Object({ account: IdParam }),
      })
  );
}
