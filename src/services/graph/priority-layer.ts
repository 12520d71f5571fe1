import type { NoteRow } from "../notes/rows";
import {
  type BareNote,
  bareNote,
  estimateTokens,
  type FocusNote,
  type GraphRAGResult,
  type NoteLookup,
  type RelationToFocusNote,
  truncateDetails,
} from "./bare-note";

/** Yields a layer's candidates of one relation, one at a time. */
export interface RelationshipHandler {
  readonly relation: RelationToFocusNote;
  /** The next candidate (advancing), or undefined when there are no more. */
  next(): NoteRow | undefined;
  /** Called when the candidate is in the related notes (just added, or added before). */
  afterAdded?(focus: FocusNote, note: NoteRow): void;
}

/**
 * Collects the result within the token budget: the focus note is paid for first; a candidate
 * that does not fit is skipped; a note already included is not added again.
 */
export class GraphResultBuilder {
  readonly focusNote: FocusNote;
  private readonly relatedNotes: BareNote[] = [];
  private readonly included = new Map<number, BareNote>();
  private remainingTokens: number;

  constructor(
    private readonly focus: NoteRow,
    private readonly byId: NoteLookup,
    contextualPath: string[],
    tokenLimit: number,
  ) {
    this.focusNote = {
      ...bareNote(focus, byId, "Self"),
      contextualPath,
      children: [],
      priorSiblings: [],
      youngerSiblings: [],
      inboundReferences: [],
    };
    this.remainingTokens = tokenLimit - estimateTokens(this.focusNote);
  }

  /**
   * The candidate's BareNote when it is (now or already) in the related notes; "focus" for the
   * focus note itself (already in the result); undefined when it does not fit the budget.
   */
  add(note: NoteRow, relation: RelationToFocusNote): BareNote | "focus" | undefined {
    if (note.id === this.focus.id) return "focus";
    const existing = this.included.get(note.id);
    if (existing) return existing;
    const candidate = bareNote(note, this.byId, relation, truncateDetails(note.details));
    const tokens = estimateTokens(candidate);
    if (tokens > this.remainingTokens) return undefined;
    this.remainingTokens -= tokens;
    this.relatedNotes.push(candidate);
    this.included.set(note.id, candidate);
    return candidate;
  }

  build(): GraphRAGResult {
    return { focusNote: this.focusNote, relatedNotes: this.relatedNotes };
  }
}

/**
 * One priority layer (the reference's PriorityLayer). It runs rounds over its handlers, taking
 * one candidate from each. After `notesBeforeNextLayer` notes were processed (added, or found
 * already added) the round stops and the next layer runs fully; so does it when a round makes
 * no progress, and then this layer is done. Control then comes back and the next round starts
 * again from the first handler. The last layer has no one to hand over to, so its rounds always
 * visit every handler.
 */
export class PriorityLayer {
  private readonly handlers: RelationshipHandler[] = [];
  private processedSinceHandOver = 0;
  nextLayer?: PriorityLayer;

  constructor(
    private readonly notesBeforeNextLayer: number,
    handlers: RelationshipHandler[] = [],
  ) {
    this.handlers.push(...handlers);
  }

  /** Handlers are added while the layers run (layers 3 and 4 are filled by the ones above). */
  addHandler(handler: RelationshipHandler) {
    this.handlers.push(handler);
  }

  run(builder: GraphResultBuilder): void {
    for (;;) {
      const progressed = this.round(builder);
      if (this.nextLayer && (!progressed || this.processedSinceHandOver >= this.notesBeforeNextLayer)) {
        this.nextLayer.run(builder);
        this.processedSinceHandOver = 0;
      }
      if (!progressed) return;
    }
  }

  private round(builder: GraphResultBuilder): boolean {
    let progressed = false;
    for (const handler of this.handlers) {
      const candidate = handler.next();
      if (!candidate) continue;
      const added = builder.add(candidate, handler.relation);
      if (!added) continue;
      if (added !== "focus") handler.afterAdded?.(builder.focusNote, candidate);
      progressed = true;
      this.processedSinceHandOver++;
      if (this.nextLayer && this.processedSinceHandOver >= this.notesBeforeNextLayer) break;
    }
    return progressed;
  }
}
