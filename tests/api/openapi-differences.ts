/**
 * Every deliberate difference between Engram's API and the reference's contract, on the
 * operations both have, with its reason (docs/decisions.md, decisions 17 and 19). The OpenAPI
 * test compares the two documents and expects exactly INTENDED_DIFFERENCES: a difference not
 * listed here fails it, and so does an entry that no longer matches anything. After each API
 * test file, every JSON answer its tests received is validated against the contract
 * (tests/support/contract.ts), and may differ from it only as ANSWER_DIFFERENCES says. `*`
 * stands for any text.
 */
export const INTENDED_DIFFERENCES: Record<string, string> = {
  // Notes and realms.
  "* 200*.noteTopology.title: missing":
    "The reference sends a note's title twice (title and titleOrPredicate); Engram sends titleOrPredicate only.",
  "* 200*.children[].details: missing":
    "A realm lists its children by title and short details; a child's full details come with its own realm, so opening a note never downloads every sibling's text.",
  "* 200*.childrenCount: added": "Each note says how many undeleted children it has, so the tree shows counts without loading each child.",
  "* 200*.linkCount: added": "How many of a note's children are links: the tree leaves links out of its children and its counts.",
  "* 200*.titleRevision: added":
    "How many times the note's title has changed: an editor's save says which revision it was made from, so the server merges what others saved since (baseRevision).",
  "* 200*.detailsRevision: added": "How many times the note's details have changed, as titleRevision.",
  "PATCH /api/text_content/{}/* body.baseRevision: added":
    "Optional: the revision a title or details save was made from; the server merges what others saved since, or answers 409 when both changed the same place. Without it a save writes as sent.",
  "* 200*.unreadable: added":
    "A related note the reader may not read (a tracker's, a conversation's, a subscription's head note once access is lost) is sent as a placeholder marked unreadable, with no title or details.",
  "* 200*.creatorName: added":
    "A notebook names its author by display name; the login (creatorId) goes only to the creator, so nobody can aim sign-in attempts at an author.",
  "* 200*.moreChildrenAfter: added":
    "A realm lists its first 40 children; moreChildrenAfter is where GET /api/notes/{note}/children continues.",
  "POST /api/subscriptions/* 200.notebookId: added": "As a listed subscription (below).",
  "GET /api/* 200*.subscriptions[].notebookId: added": "A subscription names its notebook's id, so a card needs no other call.",
  "POST /api/subscriptions/* 200.user: missing": "As a listed subscription (below).",
  "GET /api/* 200*.subscriptions[].user: missing": "A user's own subscriptions do not repeat the user.",
  "POST /api/subscriptions/* 200.fromDTO: missing": "As a listed subscription (below).",
  "GET /api/* 200*.subscriptions[].fromDTO: missing": "A write-only field of the reference's entity, never sent.",

  // The learning loop.
  "* 200*.stability: added": "A memory tracker's FSRS state (how stable the memory is), while its user schedules with FSRS.",
  "* 200*.difficulty: added": "A memory tracker's FSRS state (how hard the note is for its user), while its user schedules with FSRS.",
  "GET /api/recalls/recalling 200.toRepeat[].noteId: added":
    "Each tracker to repeat names its note, so the recall page can keep two questions about one note apart.",

  // Users and tokens.
  "* 200*.scheduler: added": "A user's scheduler (forgetting curve or FSRS).",
  "* 200*.desiredRetention: added": "A user's FSRS desired retention.",
  "* 200*.maximumIntervalDays: added": "A user's FSRS maximum interval.",
  "* 200*.ownership: missing": "What a user owns is not sent with the user; their notebooks have their own call.",
  "POST /api/user/generate-token 200.*: added": "A new token is shown with its label, last use and status, as the token list shows it.",

  // Conversations: the other party is named, not described.
  "* 200*.conversationInitiator.*: missing":
    "The initiator is named by id, name and externalIdentifier (decision 21: the login to that user only): their settings and role stay private.",
  "* 200*.sender.*: missing":
    "A message's sender is named by id, name and externalIdentifier (decision 21: the login to that user only): their settings and role stay private.",
  "* 200*.subjectOwnership.id: missing":
    "The ownership row's own id means nothing to a reader; the circle or the owner's name says who owns the subject.",
  "* 200*.aiAssistantThreadId: missing": "AI threads are Engram's own rows, named in the reply stream's events.",
  "* 200*.lastAiAssistantThreadSync: missing": "AI threads are Engram's own rows; nothing is synchronised with a provider.",
  "* 200*.unread: added": "Whether the conversation has messages the reader has not read (the Messages badge and list).",
  "* 200*.subjectTitle: added": "The subject's title, so the list needs no call per conversation.",
  "* 200*.otherPartyName: added":
    "Whom the caller talks with (the circle, the note's owner or whoever started it; absent when only the AI answers), for the conversation's label.",
  "* 200*.mayEditNote: added": "Whether the caller may edit the subject note: only then is the AI's suggested change offered with Accept.",

  // Certificates name their holder, as conversations name their parties.
  "* /api/certificate/{} 200.user.*: missing":
    "A certificate names its holder by id, name and externalIdentifier (decision 21): their settings and role stay private.",

  // Accessories.
  "* 200.uploadedImage: added": "The address of the note's own uploaded image, so the edit dialog can offer to remove it.",

  // The admin area.
  "GET /api/failure-reports 200: array here, object in the reference":
    "The reference's answer is an untyped object; Engram answers the list of reports, newest first.",
  "GET /api/failure-reports/{} 200.failureReport.githubIssue: missing":
    "Engram files nothing on GitHub; the page links to a prefilled issue.",
  "GET /api/failure-reports/{} 200.failureReport.issueNumber: missing":
    "Engram files nothing on GitHub; the page links to a prefilled issue.",

  "GET /api/data_upgrade 200: object here, array in the reference":
    "Engram upgrades its data by migrations when it starts; the call answers what it did and why, {upgraded, message}.",
  "PATCH /api/fine-tuning/{}/update-suggested-question-for-fine-tuning body.*: optional here, required in the reference":
    "An edit may leave a field out to keep its value.",
  "GET /api/notebooks/{}/dump 200: object here, array in the reference":
    "The dump file is one object: the notebook, when it was exported, and its notes (each a bare note with its recall settings), so that it can be restored whole.",

  // Notebooks and their AI assistant.
  "POST /api/ai/assistant/recreate-notebook/{} 200.creator.*: missing":
    "The assistant's creator is named by id and name only: their login, settings and role stay private.",
  "POST /api/ai/assistant/recreate-notebook/{} 200.*: added":
    "The record is Engram's own (nothing is created on the provider's side): it shows what the assistant runs with.",

  // The AI reply stream.
  "POST /api/conversation/{}/ai-reply 200: string here, object in the reference":
    "The reply is a stream of server-sent events (text/event-stream), described with its events; the reference names the stream's server-side object.",

  // Assessments.
  "* /api/assessment* 200*.createdAt: added": "When the attempt began: the history's Attempt At for attempts never submitted.",

  // Path parameter names: Elysia needs one name for a path position shared by several routes.
  "POST /api/notes/{}/create: path parameters note here, parentNote in the reference": "One name per position (/api/notes/:note/...).",
  "POST /api/notes/{}/create-after: path parameters note here, referenceNote in the reference":
    "One name per position (/api/notes/:note/...).",
  "* /api/predefined-questions/{}/*: path parameters id here, * in the reference":
    "One name per position (/api/predefined-questions/:id/...): a note id or a question id as the route says.",
  "GET /api/recall-prompts/{}/question: path parameters recallPrompt here, memoryTracker in the reference":
    "One name per position (/api/recall-prompts/:recallPrompt/...); the id is the memory tracker's, as in the reference.",
  "POST /api/assessment/{}*: path parameters id here, * in the reference": "One name per position (/api/assessment/:id/...).",
  "POST /api/notebooks/{}/obsidian: path parameters notebook here, notebookId in the reference":
    "One name per position (/api/notebooks/:notebook/...).",

  // Bodies: the reference declares whole entities as bodies; Engram declares the fields it reads.
  "POST /api/user body.*: missing": "Creating a profile reads the name only; the reference's body is the whole User entity.",
  "POST /api/circles body.id: missing": "Creating a circle reads the name only; the reference's body is the whole Circle entity.",
  "POST /api/circles body.name: optional here, required in the reference":
    "A missing name gets the same field message as a blank one, from the service.",
  "POST /api/circles/join body.invitationCode: optional here, required in the reference":
    "A missing code gets the same field message as a wrong one, from the service.",
  "POST /api/predefined-questions/{}/* body.*: missing":
    "The question is checked field by field by the service, whose messages the form shows.",
  "* body.requestId: added": "An id per submission, so that a retried notebook creation creates one notebook.",
  "* body.thinkingTimeMs: added": "How long the learner took, for the recall log.",
  "POST /api/testability/inject_suggested_questions 200: array here, string in the reference":
    "A test hook: it answers the suggestions it made, which the tests use (the reference answers a bare confirmation).",
  "POST /api/testability/inject_suggested_questions body.examples[].*: optional here, required in the reference":
    "Test data may leave out what defaults sensibly.",
};

/** Operations of the reference that Engram does not have, with the reason. */
export const NOT_IN_ENGRAM: Record<string, string> = {
  "POST /api/testability/use_real_sandbox_github_and_close_all_github_issues":
    "Failure reports link to a prefilled issue; Engram files nothing on GitHub itself.",
  "GET /api/testability/github_issues": "Engram files nothing on GitHub itself.",
  "GET /api/ai/dummy": "A placeholder of the reference that does nothing.",
};

/** Whether a difference line matches a listed pattern. */
export const matches = (pattern: string, line: string) =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*")}$`).test(line);

/**
 * How the answers the API tests receive may differ from the contract's schemas (beyond what the
 * documents' comparison above covers), as violation lines of tests/support/contract.ts.
 */
export const ANSWER_DIFFERENCES: Record<string, string> = {
  "* 200*.parentId: null here, integer in the reference":
    "A notebook's head note has no parent: its parentId is null, as the reference's server writes it (its generated schema never marks a field nullable).",
  "* 200*.numberOfQuestionsInAssessment: null here, integer in the reference":
    "A notebook without its own number of assessment questions says null, as the reference's server writes it (its generated schema never marks a field nullable).",
  "POST /api/ai/suggest-title/{note} 200.title: null here, string in the reference":
    "When the model suggests no title the answer says null, as the reference's server writes it (its generated schema never marks a field nullable).",
  "GET /api/data_upgrade 200: object here, array in the reference":
    "Engram upgrades its data by migrations when it starts; the call answers what it did and why, {upgraded, message}.",
  "GET /api/failure-reports 200: array here, object in the reference":
    "The reference declares a loose object; Engram answers the list of reports the admin page shows.",
  "GET /api/notebooks/{notebook}/dump 200: object here, array in the reference":
    "The dump file is one object: the notebook, when it was exported, and its notes (each a BareNote with its recall settings), so that it can be restored whole.",
  "POST /api/testability/inject_suggested_questions 200: array here, string in the reference":
    "A test hook: it answers the ids it made, which the tests use (the reference answers a bare confirmation).",
};

/** Engram's own operations whose paths look like one of the reference's (their answers are not validated against it), with the reason. */
export const ENGRAM_ONLY_OPERATIONS: Record<string, string> = {
  "POST /api/notebooks/anki":
    "Importing an Anki deck as a new notebook is Engram's own; the path only looks like POST /api/notebooks/{notebook}.",
};
