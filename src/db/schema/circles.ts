import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, timestamp } from "./common";
import { users } from "./users";

/** A circle: a group of learners who share notebooks, joined with a long random invitation code. */
export const circles = sqliteTable("circles", {
  id: id(),
  name: text("name").notNull(),
  invitationCode: text("invitation_code").notNull().unique(),
  createdAt: timestamp("created_at").notNull(),
});

/** Who belongs to a circle; every member reads and edits the circle's notebooks. */
export const circleMembers = sqliteTable(
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
