/**
 * What a follow-up button under a message does (Initialize's draft: "Review features.json",
 * "Resume Session"), decided without `vscode`: the command of the id table and its argument, for
 * the folder the message names. The folder comes from the message the extension made (its
 * `followUps`), never from the webview's message. chatFollowUps.ts runs the answer.
 */
import { COMMANDS } from '../../platform/ids';
import type { ChatEntry, FollowUpAction, FollowUps } from './shared/protocol';

/** The command a follow-up runs, by action. */
export const FOLLOW_UP_COMMANDS = {
  reviewFeatures: COMMANDS.openFeature,
  resume: COMMANDS.resume,
} as const satisfies Record<FollowUpAction, string>;

export type FollowUpRun<U> =
  | { ok: true; command: (typeof FOLLOW_UP_COMMANDS)['reviewFeatures']; args: [folder: U] }
  | { ok: true; command: (typeof FOLLOW_UP_COMMANDS)['resume']; args: [{ folder: U }] }
  | { ok: false; reason: string };

/** The follow-ups of entry `entryId`, when it has the button `action`. */
export function followUpsOf(entries: readonly ChatEntry[], entryId: string, action: FollowUpAction): FollowUps | undefined {
  const entry = entries.find((e) => e.id === entryId);
  const followUps = entry?.kind === 'assistant' || entry?.kind === 'notice' ? entry.followUps : undefined;
  return followUps?.actions.includes(action) ? followUps : undefined;
}

/**
 * The open folder named `name`: the chat's own folder when it has that name (two folders of a
 * multi-root workspace may share one), else the first folder so named.
 */
export function folderNamed<F extends { readonly name: string }>(name: string, all: readonly F[], current: F | undefined): F | undefined {
  if (current?.name === name) return current;
  return all.find((f) => f.name === name);
}

/**
 * A click on follow-up `action` under message `entryId`: the command to run, for the message's
 * folder (open `folders`, the chat's `current` one), or why nothing runs (a sentence for the user).
 */
export function followUpRun<U, F extends { readonly name: string; readonly uri: U }>(
  entries: readonly ChatEntry[],
  entryId: string,
  action: FollowUpAction,
  folders: readonly F[],
  current: F | undefined,
): FollowUpRun<U> {
  const followUps = followUpsOf(entries, entryId, action);
  if (!followUps) return { ok: false, reason: 'This button is no longer part of the chat.' };
  const folder = folderNamed(followUps.folder, folders, current);
  if (!folder) return { ok: false, reason: `The folder "${followUps.folder}" is no longer open in this workspace.` };
  return action === 'reviewFeatures'
    ? { ok: true, command: FOLLOW_UP_COMMANDS.reviewFeatures, args: [folder.uri] }
    : { ok: true, command: FOLLOW_UP_COMMANDS.resume, args: [{ folder: folder.uri }] };
}
