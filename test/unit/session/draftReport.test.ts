import * as assert from 'node:assert/strict';
import type { AgentErrorKind, AgentOutcome } from '../../../src/core/agent/events';
import { emptyUsage } from '../../../src/core/agent/events';
import { reportDraft, type DraftRun } from '../../../src/core/session/draftReport';

const feature = (id: string) => ({ id, category: 'functional', description: `feature ${id}`, steps: [], passes: false });
const list = (...ids: string[]) => `${JSON.stringify(ids.map(feature), null, 2)}\n`;
const finished: DraftRun = { started: true, outcome: { ok: true, stop_reason: 'end_turn', turns: 3, usage: emptyUsage() } };
const failed = (kind: AgentErrorKind, stop_reason: string | null = null): DraftRun => {
  const outcome: AgentOutcome = { ok: false, stop_reason, turns: 1, usage: emptyUsage(), error: { kind, message: 'x' } };
  return { started: true, outcome };
};

describe("Initialize's report of Claude's draft", () => {
  it('counts the features the draft added, from the files before and after', () => {
    const r = reportDraft(list(), list('F001', 'F002', 'F003', 'F004', 'F005', 'F006', 'F007'), finished);
    assert.deepEqual(r, { added: 7, finished: true, message: 'Claude added 7 features.' });
    assert.equal(reportDraft(list('F001'), list('F001', 'F002'), finished).message, 'Claude added 1 feature.');
  });

  it('says so when a finished draft added nothing (features.json still [])', () => {
    const r = reportDraft('[]\n', '[]\n', finished);
    assert.deepEqual(r, { added: 0, finished: true, message: "Claude's draft added no features." });
  });

  it('reports a cut-off at max_tokens as such, with what it did add', () => {
    const r = reportDraft(list(), list('F001', 'F002'), failed('max_tokens', 'max_tokens'));
    assert.equal(r.finished, false);
    assert.equal(r.message, 'Claude added 2 features. The draft was cut off at max_tokens before Claude finished (see the chat).');
  });

  it('reports a refusal, an empty answer and other failures as such', () => {
    assert.equal(reportDraft('[]', '[]', failed('refusal', 'refusal')).message, "Claude's draft added no features. Claude declined to draft the features.");
    assert.equal(reportDraft('[]', '[]', failed('empty_response', 'end_turn')).message, "Claude's draft added no features. Claude ended the draft without an answer.");
    assert.equal(reportDraft('[]', '[]', failed('auth')).message, "Claude's draft added no features. The draft did not finish (see the chat).");
    assert.equal(reportDraft('[]', '[]', { started: false, reason: 'Open a folder first.' }).message, "Claude's draft added no features. The draft did not start: Open a folder first.");
  });

  it('does not count renamed or kept features as added, and notices a broken or missing file', () => {
    assert.equal(reportDraft(list('F001', 'F002'), list('F002', 'F003'), finished).added, 1);
    assert.match(reportDraft(list(), '[{"id": ', finished).message, /not a valid checklist/);
    assert.match(reportDraft(list(), undefined, finished).message, /features\.json is gone/);
  });
});
