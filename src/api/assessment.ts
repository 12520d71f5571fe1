import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { answerAssessmentQuestion, attemptsOf, startAssessment, submitAssessment } from "../services/assessments/assessment-service";
import { requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { AssessmentAttempt, AssessmentQuestionInstance } from "./schemas/people";

/** /api/assessment: start an attempt, answer its questions one by one, submit it; the user's history. */
export function assessmentApi(ctx: AppContext) {
  return (
    new Elysia({ prefix: "/api/assessment" })
      .use(core(ctx))
      .get("/", ({ auth }) => attemptsOf(ctx, requireUser(auth)), { access: "signed-in", response: t.Array(AssessmentAttempt) })
      .post("/questions/:notebook", ({ auth, params }) => startAssessment(ctx, requireUser(auth), params.notebook), {
        access: "signed-in",
        response: AssessmentAttempt,
        params: t.Object({ notebook: IdParam }),
      })
      // One path segment names a question instance (…/answer) or an attempt (submit): the router needs one parameter name.
      // The choice is checked by the service against the question's choices (a field error on choiceIndex).
      .post("/:id/answer", ({ auth, params, body }) => answerAssessmentQuestion(ctx, requireUser(auth), params.id, body.choiceIndex), {
        access: "signed-in",
        response: AssessmentQuestionInstance,
        params: t.Object({ id: IdParam }),
        body: t.Object({ choiceIndex: t.Optional(t.Unknown()) }, { additionalProperties: true }),
      })
      .post("/:id", ({ auth, params }) => submitAssessment(ctx, requireUser(auth), params.id), {
        access: "signed-in",
        response: AssessmentAttempt,
        params: t.Object({ id: IdParam }),
      })
  );
}
