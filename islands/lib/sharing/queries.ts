import { queryOptions } from "@tanstack/react-query";
import type { CircleJson } from "../../../src/services/notes/presenters";
import type { BazaarNotebookJson } from "../../../src/services/sharing/bazaar";
import type { CircleForUserViewJson } from "../../../src/services/sharing/circles";
import { api } from "../api";

export type { CircleJson } from "../../../src/services/notes/presenters";
export type { BazaarNotebookJson } from "../../../src/services/sharing/bazaar";
export type { CircleForUserViewJson } from "../../../src/services/sharing/circles";
export type { SubscriptionJson } from "../../../src/services/sharing/subscriptions";

/** Query options for the bazaar and circles, shared by the server's prefetch and the islands. */
export const bazaarQuery = () => queryOptions({ queryKey: ["bazaar"], queryFn: () => api.get<BazaarNotebookJson[]>("/api/bazaar") });

export const circlesQuery = () => queryOptions({ queryKey: ["circles"], queryFn: () => api.get<CircleJson[]>("/api/circles") });

export const circleQuery = (circleId: number) =>
  queryOptions({ queryKey: ["circle", circleId], queryFn: () => api.get<CircleForUserViewJson>(`/api/circles/${circleId}`) });

export const circlePath = (circleId: number) => `/d/circles/${circleId}`;
