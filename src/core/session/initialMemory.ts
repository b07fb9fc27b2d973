/**
 * The three files the initializer writes, rendered from the templates of media/templates/.
 * Pure: the command gathers the goal, the templates and the workspace's root files.
 */
import { formatFeatures, type Feature } from './features';
import { featuresFromGoal } from './initialFeatures';
import { SESSION_FILES, type SessionFileKey } from './memoryFiles';
import { describeStartup, detectStartup, renderStartup, type WorkspaceFile } from './startupDetection';
import { isoDate, quoteBlock, renderTemplate } from './templates';

export interface InitialMemoryInput {
  goal: string;
  now: Date;
  /** Root files of the workspace folder (with contents where `wantsContent` asked). */
  workspaceFiles: readonly WorkspaceFile[];
  /** Claude drafts the checklist: start from an empty array instead of the goal's list items. */
  draftWithClaude: boolean;
  templates: { progress: string; startup: string };
}

/** Store-relative path → file text, in the order they are written (progress last: it names the others). */
export type InitialMemory = Array<{ key: SessionFileKey; path: string; text: string }>;

export function buildInitialMemory(input: InitialMemoryInput): InitialMemory {
  const date = isoDate(input.now);
  const features: Feature[] = input.draftWithClaude ? [] : featuresFromGoal(input.goal);
  const sources = detectStartup(input.workspaceFiles);
  const featureLines = features.length
    ? features.map((f) => `- ${f.id}: ${f.description}`).join('\n')
    : input.draftWithClaude
      ? '- none yet: the initializer conversation with Claude drafts them.'
      : '- none yet.';
  const files: Record<SessionFileKey, string> = {
    features: formatFeatures(features),
    startup: renderTemplate(input.templates.startup, { date, detected: renderStartup(sources) }),
    progress: renderTemplate(input.templates.progress, {
      date,
      goal: quoteBlock(input.goal),
      features: featureLines,
      startup: describeStartup(sources),
    }),
  };
  return (['features', 'startup', 'progress'] as const).map((key) => ({ key, path: SESSION_FILES[key], text: files[key] }));
}
