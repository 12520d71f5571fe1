/**
 * Assessments and certificates over real HTTP: drawing approved questions, answering once each,
 * the 80% pass mark, certificates with expiry and renewal, certification approvals, feedback.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { travelTo } from "../support/learning";
import { type HttpClient, useTestServer } from "../support/server";

const COUNTRIES = ["France", "Italy", "Spain", "Germany", "Japan"];

describe("assessments", () => {
  const server = useTestServer();
  let owner: HttpClient;
  let learner: HttpClient;
  let notebookId: number;

  const injectQuestions = async (count: number, { certifiable = false, approved = true } = {}) => {
    const result = await server.client().post("/api/testability/inject-predefined-questions", {
      notebookTitle: "Countries",
      notebookCertifiable: certifiable,
      predefinedQuestionTestData: COUNTRIES.slice(0, count).map((country) => ({
        "Note Title": country,
        Question: `Capital of ${country}?`,
        Answer: `${country} capital`,
        "One Wrong Choice": "Atlantis",
        Approved: approved,
      })),
    });
    expect(result.status).toBe(200);
    return result.body;
  };

  /** Starts an attempt and answers it: right for the first `right` questions, wrong after. */
  const sit = async (client: HttpClient, right: number) => {
    const attempt = await client.post(`/api/assessment/questions/${notebookId}`);
    expect(attempt.status).toBe(200);
    for (const [i, instance] of attempt.body.assessmentQuestionInstances.entries()) {
      const answered = await client.post(`/api/assessment/${instance.id}/answer`, { choiceIndex: i < right ? 0 : 1 });
      expect(answered.status).toBe(200);
      expect(answered.body.answer.correct).toBe(i < right);
    }
    return (await client.post(`/api/assessment/${attempt.body.id}`)).body;
  };

  beforeEach(async () => {
    await travelTo(server.client(), 1);
    const ids = await server.client().post("/api/testability/inject_notes", {
      externalIdentifier: "old_learner",
      circleName: null,
      noteTestData: [{ Title: "Countries" }, ...COUNTRIES.map((Title) => ({ Title, "Parent Title": "Countries" }))],
    });
    await server.client().post("/api/testability/share_to_bazaar", { noteTopology: "Countries" });
    owner = await server.client().loginAs("old_learner");
    learner = await server.client().loginAs("another_old_learner");
    notebookId = (await owner.get(`/api/notes/${ids.body.Countries}`)).body.notebook.id;
  });

  test("an attempt draws the approved questions, one per note, without the correct answers", async () => {
    await injectQuestions(3);
    const attempt = await learner.post(`/api/assessment/questions/${notebookId}`);
    expect(attempt.body).toMatchObject({
      notebookId,
      notebookTitle: "Countries",
      totalQuestionCount: 3,
      answersCorrect: 0,
      certifiable: false,
    });
    expect(
      attempt.body.assessmentQuestionInstances.map((q: { multipleChoicesQuestion: { stem: string } }) => q.multipleChoicesQuestion.stem),
    ).toEqual(["Capital of France?", "Capital of Italy?", "Capital of Spain?"]);
    expect(JSON.stringify(attempt.body)).not.toContain("correctAnswerIndex");
  });

  for (const [right, total, pass] of [
    [3, 3, true],
    [2, 3, false],
    [0, 3, false],
    [4, 5, true],
    [3, 5, false],
  ] as const) {
    test(`${right} of ${total} right ${pass ? "passes" : "fails"} (pass mark 80%)`, async () => {
      await injectQuestions(total);
      const result = await sit(learner, right);
      expect(result).toMatchObject({ answersCorrect: right, totalQuestionCount: total, isPass: pass });
      expect(result.submittedAt).toBeString();
    });
  }

  test("a question is answered once, nothing after submission, and an attempt is submitted once", async () => {
    await injectQuestions(3);
    const attempt = (await learner.post(`/api/assessment/questions/${notebookId}`)).body;
    const [first, second] = attempt.assessmentQuestionInstances;
    expect((await learner.post(`/api/assessment/${first.id}/answer`, { choiceIndex: 7 })).body.errors.choiceIndex).toBeString();
    expect((await learner.post(`/api/assessment/${first.id}/answer`, { choiceIndex: 0 })).status).toBe(200);
    expect((await learner.post(`/api/assessment/${first.id}/answer`, { choiceIndex: 0 })).status).toBe(400);
    expect((await owner.post(`/api/assessment/${second.id}/answer`, { choiceIndex: 0 })).status).toBe(403);
    expect((await server.client().post(`/api/assessment/${second.id}/answer`, { choiceIndex: 0 })).status).toBe(401);
    const submitted = await learner.post(`/api/assessment/${attempt.id}`);
    expect(submitted.body.answersCorrect).toBe(1);
    expect((await learner.post(`/api/assessment/${attempt.id}`)).status).toBe(400);
    expect((await learner.post(`/api/assessment/${second.id}/answer`, { choiceIndex: 0 })).status).toBe(400);
    expect((await learner.get("/api/assessment")).body[0].answersCorrect).toBe(1);
  });

  test("no questions configured, too few approved, a private notebook or signed out: refused", async () => {
    const none = await learner.post(`/api/assessment/questions/${notebookId}`);
    expect(none.status).toBe(400);
    expect(none.body.message).toBe("The assessment is not available");
    await injectQuestions(3, { approved: false });
    const few = await learner.post(`/api/assessment/questions/${notebookId}`);
    expect(few.status).toBe(400);
    expect(few.body.message).toBe("Not enough questions");
    expect((await server.client().post(`/api/assessment/questions/${notebookId}`)).status).toBe(401);
    const privateIds = (
      await server.client().post("/api/testability/inject_notes", {
        externalIdentifier: "old_learner",
        circleName: null,
        noteTestData: [{ Title: "Diary" }],
      })
    ).body;
    const privateNotebook = (await owner.get(`/api/notes/${privateIds.Diary}`)).body.notebook.id;
    const refused = await learner.post(`/api/assessment/questions/${privateNotebook}`);
    expect(refused.status).toBe(403);
    expect(refused.text).not.toContain("Diary");
  });

  test("a pass on a certifiable notebook gives a certificate; passing again renews its expiry and keeps its start", async () => {
    await injectQuestions(3, { certifiable: true });
    expect((await learner.get(`/api/certificate/${notebookId}`)).status).toBe(404);
    const failed = await sit(learner, 1);
    expect(failed).toMatchObject({ isPass: false, certifiable: true });
    expect((await learner.post(`/api/certificate/${notebookId}`)).status).toBe(400);
    await sit(learner, 3);
    const certificate = (await learner.get(`/api/certificate/${notebookId}`)).body;
    expect(certificate).toMatchObject({
      user: { name: "Another Old Learner", externalIdentifier: "another_old_learner" },
      notebook: { title: "Countries" },
      creatorName: "Old Learner",
    });
    expect(certificate.startDate.slice(0, 10)).toBe("1976-06-02");
    expect(certificate.expiryDate.slice(0, 10)).toBe("1977-06-02");
    expect((await learner.post(`/api/certificate/${notebookId}`)).body).toEqual(certificate);
    // A new expiry setting changes the next certificate, not the one issued.
    expect((await owner.post(`/api/notebooks/${notebookId}`, { certificateExpiry: "5y" })).status).toBe(200);
    expect((await learner.get(`/api/certificate/${notebookId}`)).body.expiryDate).toBe(certificate.expiryDate);
    await travelTo(learner, 100);
    await sit(learner, 3);
    const renewed = (await learner.get(`/api/certificate/${notebookId}`)).body;
    expect(renewed.startDate).toBe(certificate.startDate);
    expect(renewed.expiryDate.slice(0, 10)).toBe("1981-09-09");
    expect((await owner.get(`/api/certificate/${notebookId}`)).status).toBe(404);
  });

  test("a pass on a notebook that is not certifiable gives no certificate", async () => {
    await injectQuestions(3);
    expect(await sit(learner, 3)).toMatchObject({ isPass: true, certifiable: false });
    expect((await learner.get(`/api/certificate/${notebookId}`)).status).toBe(404);
    expect((await learner.post(`/api/certificate/${notebookId}`)).status).toBe(400);
  });

  test("certification: the creator requests, an admin sees it pending and approves, the notebook becomes certifiable", async () => {
    await injectQuestions(3);
    expect((await owner.get(`/api/notebook_certificate_approvals/for-notebook/${notebookId}`)).text).toBe(""); // none yet
    expect((await learner.post(`/api/notebook_certificate_approvals/request-approval/${notebookId}`)).status).toBe(403);
    const requested = await owner.post(`/api/notebook_certificate_approvals/request-approval/${notebookId}`);
    expect(requested.status).toBe(200);
    expect(requested.body.lastApprovalTime).toBeUndefined();
    expect((await owner.post(`/api/notebook_certificate_approvals/request-approval/${notebookId}`)).body.id).toBe(requested.body.id);
    const admin = await server.client().loginAs("admin");
    expect((await owner.get("/api/notebook_certificate_approvals/get-all-pending-request")).status).toBe(403);
    expect((await owner.post(`/api/notebook_certificate_approvals/${requested.body.id}/approve`)).status).toBe(403);
    const pending = (await admin.get("/api/notebook_certificate_approvals/get-all-pending-request")).body;
    expect(pending.map((p: { notebook: { title: string } }) => p.notebook.title)).toEqual(["Countries"]);
    const approved = await admin.post(`/api/notebook_certificate_approvals/${requested.body.id}/approve`);
    expect(approved.body.lastApprovalTime).toBeString();
    expect(approved.body.notebook.certifiable).toBe(true);
    expect((await admin.get("/api/notebook_certificate_approvals/get-all-pending-request")).body).toEqual([]);
    expect((await owner.get(`/api/notebook_certificate_approvals/for-notebook/${notebookId}`)).body.lastApprovalTime).toBeString();
    await injectQuestions(4); // adding questions later keeps it certified
    expect((await owner.get(`/api/notebooks/${notebookId}`)).body.certifiable).toBe(true);
  });

  test("feedback on a wrong answer starts a conversation with the notebook's owner", async () => {
    await injectQuestions(3);
    const attempt = (await learner.post(`/api/assessment/questions/${notebookId}`)).body;
    const question = attempt.assessmentQuestionInstances[0];
    await learner.post(`/api/assessment/${question.id}/answer`, { choiceIndex: 1 });
    expect((await learner.post(`/api/conversation/assessment-question/${question.id}`, "   ")).status).toBe(400);
    expect((await owner.post(`/api/conversation/assessment-question/${question.id}`, "Not mine")).status).toBe(403);
    const conversation = await learner.post(`/api/conversation/assessment-question/${question.id}`, "Atlantis is a capital too!");
    expect(conversation.status).toBe(200);
    expect(conversation.body).toMatchObject({
      subjectOwnership: { ownerName: "Old Learner" },
      conversationInitiator: { name: "Another Old Learner" },
      subject: { assessmentQuestionInstance: { id: question.id, multipleChoicesQuestion: { stem: "Capital of France?" } } },
    });
  });
});
