import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { core } from "./core";

/** Placeholder: note search (literal and semantic) and the notebook index operations. */
export function searchApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" }).use(core(ctx));
}
