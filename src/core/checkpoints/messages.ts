/** What Claude is told about a rewind (the chat prepends it to the next message). */
import { planSummary, type RewindPlan } from './rewindPlan';

/** The note for Claude: the workspace went back, so what it remembers doing after that point is undone. */
export function rewindNote(message: string, plan: Pick<RewindPlan, 'files' | 'memory'>): string {
  const quoted = [...message.replace(/\s+/g, ' ').trim()];
  const shown = quoted.length > 120 ? `${quoted.slice(0, 119).join('')}…` : quoted.join('');
  const files = plan.files.map((f) => f.path);
  const listed = files.length === 0 ? '' : ` Files changed back: ${files.slice(0, 20).join(', ')}${files.length > 20 ? ` and ${files.length - 20} more` : ''}.`;
  return (
    `[Note from the editor: the user rewound the workspace and memory to how they were before their message "${shown}" ` +
    `(${planSummary(plan)}). Everything you did after that point (file edits, commands' effects, memory writes) is undone; ` +
    `the conversation after it is kept only for reference.${listed} Check files again before relying on what you saw earlier.]`
  );
}
