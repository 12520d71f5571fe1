import { queryOptions } from "@tanstack/react-query";
import type { OperationJson } from "../../../src/operations";
import { api, call } from "../api";

export type { OperationJson } from "../../../src/operations";

/** While long work runs its progress is asked for this often. */
export const OPERATION_POLL_MS = 500;

const pollWhileRunning = (running: boolean) => (running ? OPERATION_POLL_MS : false);

/** One operation as it is now. */
export const readOperation = (id: number) => call(api.operations({ operation: id }).get(), { silent: true }) as Promise<OperationJson>;

export const operationQuery = (id: number) =>
  queryOptions({
    queryKey: ["operations", id],
    queryFn: () => readOperation(id),
    refetchInterval: (query) => pollWhileRunning(query.state.data?.status !== "done" && query.state.data?.status !== "failed"),
  });

export const operationsQuery = () =>
  queryOptions({
    queryKey: ["operations"],
    queryFn: () => call(api.operations.get(), { silent: true }) as Promise<OperationJson[]>,
    refetchInterval: (query) => pollWhileRunning(query.state.data?.some((operation) => operation.status === "running") ?? false),
  });

/** A finished operation's result was seen: it is no longer listed. */
export const dismissOperation = (id: number) => call(api.operations({ operation: id }).dismiss.post(), { silent: true });
