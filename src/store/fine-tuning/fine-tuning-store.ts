/**
 * The admin's fine-tuning data: questions suggested by readers (or injected by the test
 * endpoints), each with the note and the question as they were, edited, duplicated and deleted by
 * an admin. The only writer of suggested_questions_for_fine_tuning.
 */
import { asc, eq } from "drizzle-orm";
import type { suggestedQuestionsForFineTuning } from "../../db/schema";
import { defineStore, read, type StoreOf, write } from "../define";
import { all, one, type Session, type Step } from "../session";

export type SuggestedQuestionRow = typeof suggestedQuestionsForFineTuning.$inferSelect;
export type NewSuggestedQuestion = Omit<SuggestedQuestionRow, "id">;
export type SuggestionChanges = Pick<
  SuggestedQuestionRow,
  "comment" | "preservedNoteContent" | "positiveFeedback" | "realCorrectAnswers" | "preservedQuestion"
>;

/** Every suggestion, oldest first. */
export function* list(s: Session): Step<SuggestedQuestionRow[]> {
  const table = s.t.suggestedQuestionsForFineTuning;
  return yield* all(s, s.db.select().from(table).orderBy(asc(table.id)));
}

export function* find(s: Session, id: number): Step<SuggestedQuestionRow | undefined> {
  const table = s.t.suggestedQuestionsForFineTuning;
  return yield* one(s, s.db.select().from(table).where(eq(table.id, id)));
}

export function* insert(s: Session, values: NewSuggestedQuestion[]): Step<SuggestedQuestionRow[]> {
  if (values.length === 0) return [];
  return yield* all(s, s.db.insert(s.t.suggestedQuestionsForFineTuning).values(values).returning());
}

/** The suggestion as edited, or undefined when there is none. */
export function* update(s: Session, id: number, changes: SuggestionChanges): Step<SuggestedQuestionRow | undefined> {
  const table = s.t.suggestedQuestionsForFineTuning;
  return yield* one(s, s.db.update(table).set(changes).where(eq(table.id, id)).returning());
}

/** A copy of the suggestion created at `now`, or undefined when there is none. */
export function* duplicate(s: Session, id: number, now: Date): Step<SuggestedQuestionRow | undefined> {
  const original = yield* find(s, id);
  if (!original) return undefined;
  const { id: _id, createdAt: _createdAt, ...copy } = original;
  const [row] = yield* insert(s, [{ ...copy, createdAt: now }]);
  return row;
}

/** Deletes the suggestion; answers it as it was, or undefined when there was none. */
export function* remove(s: Session, id: number): Step<SuggestedQuestionRow | undefined> {
  const table = s.t.suggestedQuestionsForFineTuning;
  return yield* one(s, s.db.delete(table).where(eq(table.id, id)).returning());
}

/**
 * The test endpoints' suggestions, made by the admin test profile (a suggestion needs a user);
 * null when there is no such profile.
 */
export function* insertForAdminProfile(
  s: Session,
  suggestions: Omit<NewSuggestedQuestion, "userId">[],
): Step<SuggestedQuestionRow[] | null> {
  const { users, accounts } = s.t;
  const admin = yield* one(
    s,
    s.db
      .select({ id: users.id })
      .from(users)
      .innerJoin(accounts, eq(users.accountId, accounts.id))
      .where(eq(accounts.externalIdentifier, "admin"))
      .limit(1),
  );
  if (!admin) return null;
  return yield* insert(
    s,
    suggestions.map((suggestion) => ({ ...suggestion, userId: admin.id })),
  );
}

export const fineTuningStore = defineStore({
  list: read(list),
  find: read(find),
  insert: write(insert),
  update: write(update),
  duplicate: write(duplicate),
  remove: write(remove),
  insertForAdminProfile: write(insertForAdminProfile),
});
export type FineTuningStore = StoreOf<typeof fineTuningStore>;
