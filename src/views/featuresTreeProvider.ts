/**
 * The Features view: one checkbox per feature of `/memories/features.json`, its steps as
 * children, and a "7 / 20 passing" header. Multi-root workspaces get one group per folder.
 */
import * as vscode from 'vscode';
import { parseFeatures, summarizeFeatures, type Feature, type FeatureSummary } from '../core/session/features';
import { readSessionFile } from '../commands/session/storeFiles';
import type { MemoryStore } from '../platform/memoryStores';

/** What one folder's checklist looks like right now. */
export type FolderChecklist =
  | { store: MemoryStore; state: 'missing' }
  | { store: MemoryStore; state: 'invalid'; problem: string }
  | { store: MemoryStore; state: 'ok'; features: Feature[]; summary: FeatureSummary };

export type FeatureNode =
  | { kind: 'folder'; checklist: FolderChecklist }
  | { kind: 'summary'; checklist: FolderChecklist & { state: 'ok' } }
  | { kind: 'message'; checklist: FolderChecklist; text: string; detail?: string }
  | { kind: 'feature'; store: MemoryStore; feature: Feature }
  | { kind: 'step'; store: MemoryStore; feature: Feature; step: string; index: number };

export const OPEN_FEATURE_COMMAND = 'claudeMemory.features.open';

export class FeaturesTreeProvider implements vscode.TreeDataProvider<FeatureNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private checklists: Promise<FolderChecklist[]> | undefined;

  constructor(private readonly stores: () => readonly MemoryStore[]) {}

  /** Drops the cached read; the view asks again. */
  refresh(): void {
    this.checklists = undefined;
    this.changed.fire();
  }

  /** Every folder's checklist, read once per refresh. */
  load(): Promise<FolderChecklist[]> {
    this.checklists ??= Promise.all(this.stores().map(readChecklist));
    return this.checklists;
  }

  async getChildren(node?: FeatureNode): Promise<FeatureNode[]> {
    if (!node) {
      const lists = await this.load();
      // One folder without a checklist: an empty tree lets the view's welcome text (with its buttons) show.
      if (lists.length === 1) return lists[0].state === 'missing' ? [] : folderChildren(lists[0]);
      return lists.map((checklist) => ({ kind: 'folder', checklist }));
    }
    if (node.kind === 'folder') return folderChildren(node.checklist);
    if (node.kind === 'feature') {
      return node.feature.steps.map((step, index) => ({ kind: 'step', store: node.store, feature: node.feature, step, index }));
    }
    return [];
  }

  getTreeItem(node: FeatureNode): vscode.TreeItem {
    switch (node.kind) {
      case 'folder':
        return folderItem(node.checklist);
      case 'summary':
        return summaryItem(node.checklist);
      case 'message':
        return messageItem(node);
      case 'feature':
        return featureItem(node.store, node.feature);
      case 'step':
        return stepItem(node);
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

async function readChecklist(store: MemoryStore): Promise<FolderChecklist> {
  let text: string | undefined;
  try {
    text = await readSessionFile(store, 'features');
  } catch (e) {
    return { store, state: 'invalid', problem: `it cannot be read (${e instanceof Error ? e.message : String(e)})` };
  }
  if (text === undefined) return { store, state: 'missing' };
  const parsed = parseFeatures(text);
  if (!parsed.ok) return { store, state: 'invalid', problem: parsed.problem };
  return { store, state: 'ok', features: parsed.features, summary: summarizeFeatures(parsed.features) };
}

function folderChildren(checklist: FolderChecklist): FeatureNode[] {
  switch (checklist.state) {
    case 'missing':
      return [{ kind: 'message', checklist, text: 'No feature checklist yet', detail: 'Run "Claude Memory: Initialize Project Memory" to create progress.md, features.json and startup.md.' }];
    case 'invalid':
      return [{ kind: 'message', checklist, text: 'features.json is not a valid checklist', detail: `features.json cannot be shown: ${checklist.problem}. Open it and fix it; the view updates on save.` }];
    case 'ok':
      return [
        { kind: 'summary', checklist },
        ...checklist.features.map((feature): FeatureNode => ({ kind: 'feature', store: checklist.store, feature })),
      ];
  }
}

export function passingLabel(summary: FeatureSummary): string {
  return `${summary.passing} / ${summary.total} passing`;
}

function folderItem(checklist: FolderChecklist): vscode.TreeItem {
  const item = new vscode.TreeItem(checklist.store.folder.name, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `folder:${checklist.store.folder.uri.toString()}`;
  item.iconPath = vscode.ThemeIcon.Folder;
  item.description = checklist.state === 'ok' ? passingLabel(checklist.summary) : checklist.state === 'missing' ? 'no checklist' : 'invalid features.json';
  item.contextValue = 'featuresFolder';
  return item;
}

function summaryItem(checklist: FolderChecklist & { state: 'ok' }): vscode.TreeItem {
  const { summary } = checklist;
  const item = new vscode.TreeItem(passingLabel(summary), vscode.TreeItemCollapsibleState.None);
  item.id = `summary:${checklist.store.folder.uri.toString()}`;
  const done = summary.total > 0 && summary.passing === summary.total;
  item.iconPath = new vscode.ThemeIcon(done ? 'pass-filled' : 'checklist', new vscode.ThemeColor(done ? 'testing.iconPassed' : 'foreground'));
  item.description = progressBar(summary);
  item.tooltip = summary.nextFailing ? `Next failing feature: ${summary.nextFailing.id}: ${summary.nextFailing.description}` : summary.total ? 'Every feature passes.' : 'The checklist is empty.';
  item.command = { command: OPEN_FEATURE_COMMAND, title: 'Open features.json', arguments: [checklist.store.folder.uri] };
  item.contextValue = 'featuresSummary';
  return item;
}

/** `■■■■□□□□□□ 40%`: readable at a glance in the header's description. */
function progressBar(summary: FeatureSummary): string {
  if (summary.total === 0) return 'no features yet';
  const filled = Math.round((summary.passing / summary.total) * 10);
  return `${'■'.repeat(filled)}${'□'.repeat(10 - filled)} ${Math.round((summary.passing / summary.total) * 100)}%`;
}

function messageItem(node: Extract<FeatureNode, { kind: 'message' }>): vscode.TreeItem {
  const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
  item.iconPath = new vscode.ThemeIcon(node.checklist.state === 'invalid' ? 'warning' : 'info');
  item.tooltip = node.detail;
  item.description = node.checklist.state === 'invalid' ? 'open it to fix' : undefined;
  item.command =
    node.checklist.state === 'invalid'
      ? { command: OPEN_FEATURE_COMMAND, title: 'Open features.json', arguments: [node.checklist.store.folder.uri] }
      : { command: 'claudeMemory.initialize', title: 'Initialize Project Memory', arguments: [{ folder: node.checklist.store.folder.uri }] };
  return item;
}

function featureItem(store: MemoryStore, feature: Feature): vscode.TreeItem {
  const item = new vscode.TreeItem(feature.description, feature.steps.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = `feature:${store.folder.uri.toString()}#${feature.id}`;
  item.description = `${feature.id} · ${feature.category}`;
  item.checkboxState = {
    state: feature.passes ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked,
    tooltip: feature.passes ? 'Passing: untick to mark it failing' : 'Tick when verified end-to-end',
  };
  const tooltip = new vscode.MarkdownString(undefined, false);
  tooltip.appendMarkdown(`**${feature.id}** (${feature.category}): ${feature.passes ? 'passing' : 'not passing yet'}\n\n`);
  tooltip.appendText(feature.description);
  if (feature.steps.length) tooltip.appendMarkdown('\n\n**Steps**\n\n').appendText(feature.steps.map((s, i) => `${i + 1}. ${s}`).join('\n'));
  item.tooltip = tooltip;
  item.command = { command: OPEN_FEATURE_COMMAND, title: 'Open in features.json', arguments: [store.folder.uri, feature.id] };
  item.contextValue = feature.passes ? 'feature.passing' : 'feature.failing';
  return item;
}

function stepItem(node: Extract<FeatureNode, { kind: 'step' }>): vscode.TreeItem {
  const item = new vscode.TreeItem(`${node.index + 1}. ${node.step}`, vscode.TreeItemCollapsibleState.None);
  item.id = `step:${node.store.folder.uri.toString()}#${node.feature.id}#${node.index}`;
  item.tooltip = node.step;
  item.contextValue = 'featureStep';
  return item;
}
