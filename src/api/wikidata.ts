import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { core } from "./core";

/** Placeholder: Wikidata search, entity data and associating a note with an entity. */
export function wikidataApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" }).use(core(ctx));
}
