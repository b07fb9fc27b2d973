/**
 * What Initialize says after Claude's draft of the feature list: what actually changed in
 * features.json (compared before and after, not what the conversation claims), and why the
 * draft stopped when it did not finish.
 */
import type { AgentOutcome } from '../agent/events';
import { parseFeatures } from './features';

/** How the draft conversation went: it ran (with its outcome), or it never started (and why). */
export type DraftRun = { started: true; outcome: AgentOutcome } | { started: false; reason: string };

export interface DraftReport {
  /** Features whose id was not in the checklist before the draft. */
  added: number;
  /** True when the conversation ran to its end (an answer, not a cut-off, refusal or error). */
  finished: boolean;
  /** The one sentence for the notification; the next step is added by the caller. */
  message: string;
}

/**
 * `before` and `after`: the text of features.json around the draft (undefined when missing).
 */
export function reportDraft(before: string | undefined, after: string | undefined, run: DraftRun): DraftReport {
  const added = addedFeatures(before, after);
  const finished = run.started && run.outcome.ok;
  return { added, finished, message: `${whatChanged(added, after)}${whyStopped(run)}` };
}

/**
 * What comes after a draft, in the chat: a draft that finished and added features leads on to
 * reviewing them and resuming the session (its buttons go on Claude's last text; `note` is the
 * line shown when the answer had none). Otherwise Resume has nothing to work on yet: only the
 * review, on a line that says what happened and what to do.
 */
export function draftNextSteps(draft: DraftReport): { resume: boolean; note: string } {
  if (draft.finished && draft.added > 0) return { resume: true, note: `${draft.message} Review features.json, then resume the session to start working.` };
  return { resume: false, note: `${draft.message} Add features to features.json, or ask Claude here to draft them.` };
}

function addedFeatures(before: string | undefined, after: string | undefined): number {
  const ids = (text: string | undefined): string[] | undefined => {
    if (text === undefined) return undefined;
    const parsed = parseFeatures(text);
    return parsed.ok ? parsed.features.map((f) => f.id) : undefined;
  };
  const old = new Set(ids(before) ?? []);
  return (ids(after) ?? []).filter((id) => !old.has(id)).length;
}

function whatChanged(added: number, after: string | undefined): string {
  if (after === undefined) return 'features.json is gone after Claude\'s draft.';
  if (!parseFeatures(after).ok) return 'features.json is not a valid checklist after Claude\'s draft: open it and fix it.';
  if (added === 0) return "Claude's draft added no features.";
  return `Claude added ${added} feature${added === 1 ? '' : 's'}.`;
}

function whyStopped(run: DraftRun): string {
  if (!run.started) return ` The draft did not start: ${run.reason}`;
  if (run.outcome.ok) return '';
  switch (run.outcome.error?.kind) {
    case 'max_tokens':
      return ' The draft was cut off at max_tokens before Claude finished (see the chat).';
    case 'context_window':
      return " The draft was cut off: the conversation filled the model's context window.";
    case 'refusal':
      return ' Claude declined to draft the features.';
    case 'empty_response':
      return ' Claude ended the draft without an answer.';
    case 'cancelled':
      return ' The draft was stopped.';
    default:
      return ' The draft did not finish (see the chat).';
  }
}
