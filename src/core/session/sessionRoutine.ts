/** The message "Resume Session" sends: the readable routine template with today's state filled in. */
import { parseFeatures, summarizeFeatures } from './features';
import { clipText, isoDate, renderTemplate } from './templates';

export interface SessionRoutineInput {
  template: string;
  now: Date;
  /** Text of features.json, or undefined when it does not exist. */
  featuresText: string | undefined;
  /** Commit the verified work with git: the setting is on and the folder is a git repository. */
  gitCommit: boolean;
}

export const COMMIT_STEP =
  'Commit this session\'s work with git from the bash tool: `git status` to review, then `git add` the files you changed ' +
  '(never memory files you did not mean to commit, never secrets) and `git commit -m "<feature id>: <what works now>"`. Do not push.';
export const NO_COMMIT_STEP = 'Do not commit: leave the changes for the user to review.';

export function renderSessionRoutine(input: SessionRoutineInput): string {
  const { progress, nextFeature } = featureState(input.featuresText);
  // A chat message, not a file: no trailing newline (the chat would trim it anyway).
  const commitStep = input.gitCommit ? COMMIT_STEP : NO_COMMIT_STEP;
  return renderTemplate(input.template, { date: isoDate(input.now), progress, nextFeature, commitStep }).trim();
}

function featureState(text: string | undefined): { progress: string; nextFeature: string } {
  if (text === undefined) {
    return { progress: '/memories/features.json does not exist yet', nextFeature: 'none (create the checklist first)' };
  }
  const parsed = parseFeatures(text);
  if (!parsed.ok) {
    return { progress: `/memories/features.json cannot be read: ${parsed.problem}`, nextFeature: 'unknown (ask the user to repair the checklist)' };
  }
  const s = summarizeFeatures(parsed.features);
  const progress = `${s.passing} / ${s.total} features passing`;
  if (!s.nextFailing) return { progress, nextFeature: 'none: every feature passes (verify, then ask the user what comes next)' };
  // File content inside the routine: one line, quoted, so it reads as data and keeps the list intact.
  const description = s.nextFailing.description.replace(/\s+/g, ' ').trim();
  return { progress, nextFeature: `${s.nextFailing.id} (${JSON.stringify(clipText(description, 200))})` };
}

/** The chat chip of the routine: "Resume Session · next: F003" (or why there is no next feature). */
export function sessionRoutineLabel(featuresText: string | undefined): string {
  if (featuresText === undefined) return 'Resume Session';
  const parsed = parseFeatures(featuresText);
  if (!parsed.ok) return 'Resume Session · checklist unreadable';
  const s = summarizeFeatures(parsed.features);
  return s.nextFailing ? `Resume Session · next: ${clipText(s.nextFailing.id, 40)}` : 'Resume Session · all features pass';
}
