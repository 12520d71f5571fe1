import { useQueryClient } from "@tanstack/react-query";
import { type NoteRealmJson, noteRealmQuery } from "../../lib/notes-queries";

/** Puts the realms an API call answered into the cache, so every island shows them. */
export function useStoreRealms() {
  const queryClient = useQueryClient();
  return (realms: NoteRealmJson[]) => {
    for (const realm of realms) queryClient.setQueryData(noteRealmQuery(realm.id).queryKey, realm);
  };
}
