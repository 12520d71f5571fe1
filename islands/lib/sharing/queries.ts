import { queryOptions } from "@tanstack/react-query";
import { api, call } from "../api";

export type { CircleJson } from "../../../src/services/notes/presenters";
export type { BazaarNotebookJson } from "../../../src/services/sharing/bazaar";
export type { CircleForUserViewJson } from "../../../src/services/sharing/circles";
export type { SubscriptionJson } from "../../../src/services/sharing/subscriptions";

/** Query options for the bazaar and circles, shared by the server's prefetch and the islands. */
export const bazaarQuery = () => queryOptions({ queryKey: ["bazaar"], queryFn: () => call(api.bazaar.get()) });

export const circlesQuery = () => queryOptions({ queryKey: ["circles"], queryFn: () => call(api.circles.get()) });

export const circleQuery = (circleId: number) =>
  queryOptions({ queryKey: ["circle", circleId], queryFn: () => call(api.circles({ circle: circleId }).get()) });

export const circlePath = (circleId: number) => `/d/circles/${circleId}`;
