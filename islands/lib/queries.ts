import { queryOptions } from "@tanstack/react-query";
import { api, call } from "./api";

/**
 * Query options shared by the server (which prefetches under the same keys through the services)
 * and the islands (which fetch over /api when the data goes stale or is invalidated).
 */
export const currentUserInfoQuery = () =>
  queryOptions({
    queryKey: ["current-user-info"],
    queryFn: () => call(api.user["current-user-info"].get(), { silent: true }),
  });

export const userTokensQuery = () =>
  queryOptions({
    queryKey: ["user-tokens"],
    queryFn: () => call(api.user["get-tokens"].get()),
  });
