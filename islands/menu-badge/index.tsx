import { useQuery } from "@tanstack/react-query";
import { type MenuBadgeKind, menuBadgeQuery } from "../lib/learning-queries";

/** The count beside a main-menu item (due notes, notes to repeat, unread conversations). */
export default function MenuBadge({ kind }: { kind: MenuBadgeKind }) {
  const { data } = useQuery(menuBadgeQuery(kind));
  if (!data) return null;
  return (
    <span className="badge" role="img" aria-label={`${data} ${kind === "messages" ? "unread" : "due"}`}>
      {data}
    </span>
  );
}
