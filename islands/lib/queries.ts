import { queryOptions } from "@tanstack/react-query";
import type { UserTokenJson } from "../../src/services/user-tokens";
import type { CurrentUserInfoJson } from "../../src/services/users";
import { api } from "./api";
// A cycle (learning-queries uses menuBadgeQuery), safe because both only use it inside functions.
import { fetchAssimilationCount, fetchRecallOverview } from "./learning-queries";

/**
 * Query options shared by the server (which prefetches under the same keys through the services)
 * and the islands (which fetch over /api when the data goes stale or is invalidated).
 */
export const currentUserInfoQuery = () =>
  queryOptions({
    queryKey: ["current-user-info"],
    queryFn: () => api.get<CurrentUserInfoJson>("/api/user/current-user-info", { silent: true }),
  });

export const userTokensQuery = () =>
  queryOptions({
    queryKey: ["user-tokens"],
    queryFn: () => api.get<UserTokenJson[]>("/api/user/get-tokens"),
  });

export type MenuBadgeKind = "assimilate" | "recall" | "messages";

/**
 * The main-menu badge counts. The server prefetches them with each page; the features that
 * count them (assimilation, recall, conversations) register their fetchers here as they land.
 */
const menuBadgeFetchers: Partial<Record<MenuBadgeKind, () => Promise<number>>> = {
  assimilate: () => fetchAssimilationCount().then((count) => count.dueCount),
  recall: () => fetchRecallOverview().then((overview) => overview.toRepeatCount),
};

export const menuBadgeQuery = (kind: MenuBadgeKind) =>
  queryOptions({
    queryKey: ["menu-badge", kind],
    queryFn: () => menuBadgeFetchers[kind]?.() ?? Promise.resolve(0),
    enabled: menuBadgeFetchers[kind] !== undefined,
  });
