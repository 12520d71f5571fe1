import { queryOptions } from "@tanstack/react-query";
import type { UserTokenJson } from "../../src/services/user-tokens";
import type { CurrentUserInfoJson } from "../../src/services/users";
import { api } from "./api";

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
