import type * as vscode from 'vscode';
import { STATE_KEYS } from '../../platform/ids';
import { markAllReviewed, markReviewed, parseReviewState, type ReviewState } from './changeFeedModel';

/** What the user reviewed in the Memory Changes feed, kept per workspace (workspaceState). */
export class ReviewMarks {
  constructor(private readonly state: vscode.Memento) {}

  get current(): ReviewState {
    return parseReviewState(this.state.get(STATE_KEYS.reviewedChanges));
  }

  async markAll(newest: Record<string, number>): Promise<void> {
    await this.state.update(STATE_KEYS.reviewedChanges, markAllReviewed(this.current, newest));
  }

  /** True when the version was not reviewed before. */
  async mark(key: string, version: number): Promise<boolean> {
    return this.markMany(key, [version]);
  }

  /** Marks every version of `versions` reviewed, in one write; true when one was not reviewed before. */
  async markMany(key: string, versions: readonly number[]): Promise<boolean> {
    const before = this.current;
    const after = versions.reduce((state, version) => markReviewed(state, key, version), before);
    if (after === before) return false;
    await this.state.update(STATE_KEYS.reviewedChanges, after);
    return true;
  }
}
