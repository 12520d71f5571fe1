import type { AppContext } from "../../context";
import { authorizeAdmin } from "../policies";
import type { CurrentUser } from "../users";

/**
 * GET /data_upgrade (admin): the reference's hook for one-off data fixes. Engram's schema changes
 * run as migrations at start-up, so there is nothing left to do; it says so, and running it again
 * changes nothing.
 */
export function dataUpgrade(_ctx: AppContext, current: CurrentUser | undefined): { upgraded: string[]; message: string } {
  authorizeAdmin(current, "Only an administrator can upgrade data");
  return { upgraded: [], message: "Nothing to upgrade: the database schema is upgraded by migrations when Engram starts." };
}
