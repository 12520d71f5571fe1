import type { QueryClient } from "@tanstack/react-query";
import { noteAccessoryQuery } from "../../islands/lib/accessory/queries";
import { assimilatingQuery, assimilationCountQuery, noteInfoQuery } from "../../islands/lib/learning-queries";
import type { AppContext } from "../context";
import { showNoteAccessory } from "../services/accessories/accessory-service";
import { assimilating, assimilationCount } from "../services/memory/assimilation";
import { noteInfo } from "../services/memory/trackers";
import type { CurrentUser } from "../services/users";

/**
 * What /d/assimilate shows first, under the keys the assimilate island reads: today's list and
 * counters (in the reader's time zone) and, for the first note, its recall setting and image.
 */
export async function prefetchAssimilation(ctx: AppContext, queryClient: QueryClient, current: CurrentUser, timeZone: string) {
  const notes = await assimilating(ctx, current, timeZone);
  queryClient.setQueryData(assimilatingQuery().queryKey, notes);
  queryClient.setQueryData(assimilationCountQuery().queryKey, await assimilationCount(ctx, current, timeZone));
  const first = notes[0];
  if (!first) return;
  queryClient.setQueryData(noteInfoQuery(first.id).queryKey, await noteInfo(ctx, current, first.id));
  queryClient.setQueryData(noteAccessoryQuery(first.id).queryKey, await showNoteAccessory(ctx, current, first.id));
}
