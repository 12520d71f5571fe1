// The PostgreSQL twin of src/db/schema/circles.ts (see src/db/postgres/schema/common.ts).
import { index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { id, timestamp } from "./common";
import { users } from "./users";

export const circles = pgTable("circles", {
  id: id(),
  name: text("name").notNull(),
  invitationCode: text("invitation_code").notNull().unique(),
  createdAt: timestamp("created_at").notNull(),
});

export const circleMembers = pgTable(
  "circle_members",
  {
    circleId: integer("circle_id")
      .notNull()
      .references(() => circles.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    joinedAt: timestamp("joined_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.circleId, table.userId] }), index("circle_members_user_id_idx").on(table.userId)],
);
