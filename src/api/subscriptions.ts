import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { subscribe, unsubscribe, updateSubscription } from "../services/sharing/subscriptions";
import { requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { Integer } from "./schemas/integer";
import { Subscription } from "./schemas/notes";

/** The daily target is checked by the service, so a bad one is a field error on dailyTargetOfNewNotes. */
const subscriptionBody = t.Object({ dailyTargetOfNewNotes: t.Optional(t.Unknown()) }, { additionalProperties: true });

/** /api/subscriptions: "Add to my learning", "Edit subscription", "Unsubscribe". */
export function subscriptionsApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api/subscriptions" })
    .use(core(ctx))
    .post(
      "/notebooks/:notebook/subscribe",
      ({ auth, params, body }) => subscribe(ctx, requireUser(auth), params.notebook, body.dailyTargetOfNewNotes),
      { access: "signed-in", response: Subscription, params: t.Object({ notebook: IdParam }), body: subscriptionBody },
    )
    .post(
      "/:subscription",
      ({ auth, params, body }) => updateSubscription(ctx, requireUser(auth), params.subscription, body.dailyTargetOfNewNotes),
      { access: "signed-in", response: Subscription, params: t.Object({ subscription: IdParam }), body: subscriptionBody },
    )
    .post("/:subscription/delete", ({ auth, params }) => unsubscribe(ctx, requireUser(auth), params.subscription), {
      access: "signed-in",
      response: t.Array(Integer()),
      params: t.Object({ subscription: IdParam }),
    });
}
