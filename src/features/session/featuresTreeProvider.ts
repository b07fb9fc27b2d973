/**
 * The Features view: one checkbox per feature of `/memories/features.json`, its steps as
 * children, and a "7 / 20 passing" header. Multi-root workspaces get one group per folder.
 */
import * as vscode from 'vscode';
import { parseFeatures, summarizeFeatures, type Feature, type FeatureSummary } from '../../core/session/features';
import { COMMANDS } from '../../platform/ids';
import { readSessionFile } from '../../platform/sessionFiles';
import { inlineCodeParts, markdownCode, plainText } from '../../ui/inlineCode';
import type { MemoryStore } from '../../platform/memoryStores';

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

/**
 * Refreshes item by item where it can. A whole-tree refresh makes VS Code's extension host forget
 * every item until the view has fetched the tree again; a checkbox click landing in that gap
 * reaches onDidChangeCheckboxState with no items and the user's tick or untick is lost. Every tick
 * writes features.json, which our own refresh and then the file watcher's both follow, so the
 * next click often landed in such a gap. So: a re-read that only changes texts and ticks points
 * the shown nodes (kept as the same objects) at the new data and refreshes just those, an
 * unchanged re-read refreshes nothing, and only a new shape (folders, states, ids, steps)
 * refreshes the whole tree. (With several folders the folder row shows the count too, and VS
 * Code re-fetches a refreshed row's children: its features still have a short gap after a tick.)
 */
export class FeaturesTreeProvider implements vscode.TreeDataProvider<FeatureNode> {
  private readonly changed = new vscode.EventEmitter<FeatureNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private shown: Promise<Snapshot> | undefined;
  /** Re-reads run one after another so their comparisons see each other's results. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly stores: () => readonly MemoryStore[]) {}

  /**
   * Re-reads every checklist and tells the view what changed. `rerender` nodes are refreshed even
   * when their data did not change: a refused or failed tick must put the checkbox back.
   */
  refresh(rerender: readonly FeatureNode[] = []): Promise<void> {
    const run = this.queue.then(() => this.reload(rerender));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Every folder's checklist as the view shows it (after any pending re-read). */
  async load(): Promise<FolderChecklist[]> {
    return (await this.snapshot()).lists;
  }

  private async snapshot(): Promise<Snapshot> {
    await this.queue;
    this.shown ??= this.read().then(buildSnapshot);
    return this.shown;
  }

  private read(): Promise<FolderChecklist[]> {
    return Promise.all(this.stores().map(readChecklist));
  }

  private async reload(rerender: readonly FeatureNode[]): Promise<void> {
    const before = this.shown && (await this.shown);
    const lists = await this.read();
    if (!before || shapeOf(before.lists) !== shapeOf(lists) || before.lists.some((l, i) => l.store !== lists[i].store)) {
      this.shown = Promise.resolve(buildSnapshot(lists));
      this.changed.fire(undefined);
      return;
    }
    const changed = new Set(updateInPlace(before, lists));
    for (const node of rerender) {
      const current = before.byKey.get(keyOf(node));
      if (current) changed.add(current);
    }
    if (changed.size) this.changed.fire([...changed]);
  }

  async getChildren(node?: FeatureNode): Promise<FeatureNode[]> {
    if (!node) return (await this.snapshot()).roots;
    if (node.kind === 'folder') return (await this.snapshot()).children.get(keyOf(node)) ?? [];
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

/** The nodes handed to the view, kept (same objects) for as long as the tree's shape stays. */
interface Snapshot {
  lists: FolderChecklist[];
  roots: FeatureNode[];
  /** Children of each folder node (multi-root), by the folder node's key. */
  children: Map<string, FeatureNode[]>;
  byKey: Map<string, FeatureNode>;
}

function buildSnapshot(lists: FolderChecklist[]): Snapshot {
  const byKey = new Map<string, FeatureNode>();
  const children = new Map<string, FeatureNode[]>();
  const keep = (nodes: FeatureNode[]) => {
    for (const n of nodes) byKey.set(keyOf(n), n);
    return nodes;
  };
  let roots: FeatureNode[];
  // One folder without a checklist: an empty tree lets the view's welcome text (with its buttons) show.
  if (lists.length === 1) roots = lists[0].state === 'missing' ? [] : keep(folderChildren(lists[0]));
  else {
    roots = keep(lists.map((checklist): FeatureNode => ({ kind: 'folder', checklist })));
    for (const folder of roots) children.set(keyOf(folder), keep(folderChildren((folder as Extract<FeatureNode, { kind: 'folder' }>).checklist)));
  }
  return { lists, roots, children, byKey };
}

/** Everything that decides which nodes exist and what their children are. */
function shapeOf(lists: readonly FolderChecklist[]): string {
  return JSON.stringify(
    lists.map((l) => [
      l.store.key,
      l.state,
      l.state === 'invalid' ? l.problem : '',
      l.state === 'ok' ? l.features.map((f) => [f.id, f.steps]) : [],
    ]),
  );
}

/** Points the snapshot's nodes at the new data (same shape); returns the nodes that look different now. */
function updateInPlace(snapshot: Snapshot, lists: FolderChecklist[]): FeatureNode[] {
  const changed: FeatureNode[] = [];
  lists.forEach((list, i) => {
    const old = snapshot.lists[i];
    if (list.state !== 'ok' || old.state !== 'ok') return;
    const features = new Map(old.features.map((f) => [f.id, f]));
    const differs = list.features.filter((f) => JSON.stringify(f) !== JSON.stringify(features.get(f.id)));
    for (const node of snapshot.byKey.values()) {
      if ((node.kind === 'folder' || node.kind === 'summary') && node.checklist.store === list.store) {
        node.checklist = list;
        if (differs.length) changed.push(node);
      } else if (node.kind === 'feature' && node.store === list.store) {
        const feature = list.features.find((f) => f.id === node.feature.id);
        if (!feature) continue;
        node.feature = feature;
        if (differs.includes(feature)) changed.push(node);
      }
    }
  });
  snapshot.lists = lists;
  return changed;
}

/** Stable per node across re-reads: the same strings the tree items use as ids. */
function keyOf(node: FeatureNode): string {
  switch (node.kind) {
    case 'folder':
      return `folder:${node.checklist.store.key}`;
    case 'summary':
      return `summary:${node.checklist.store.key}`;
    case 'message':
      return `message:${node.checklist.store.key}`;
    case 'feature':
      return `feature:${node.store.key}#${node.feature.id}`;
    case 'step':
      return `step:${node.store.key}#${node.feature.id}#${node.index}`;
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
  item.id = `folder:${checklist.store.key}`;
  item.iconPath = vscode.ThemeIcon.Folder;
  item.description = checklist.state === 'ok' ? passingLabel(checklist.summary) : checklist.state === 'missing' ? 'no checklist' : 'invalid features.json';
  item.contextValue = 'featuresFolder';
  return item;
}

/**
 * The first row says what is next; the "N / M passing" count is in the view's header (or the
 * folder's row, multi-root), so it is not repeated here.
 */
function summaryItem(checklist: FolderChecklist & { state: 'ok' }): vscode.TreeItem {
  const { summary } = checklist;
  const next = summary.nextFailing;
  const label = next ? `Next: ${next.id} · ${plainText(next.description)}` : summary.total ? 'Every feature passes' : 'No features yet';
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.id = `summary:${checklist.store.key}`;
  const done = summary.total > 0 && summary.passing === summary.total;
  item.iconPath = new vscode.ThemeIcon(done ? 'pass-filled' : 'checklist', new vscode.ThemeColor(done ? 'testing.iconPassed' : 'foreground'));
  item.description = progressBar(summary);
  const tooltip = new vscode.MarkdownString(`${passingLabel(summary)}. `);
  if (next) appendInlineMarkdown(tooltip.appendMarkdown(`Next failing feature: **${next.id}**: `), next.description);
  else tooltip.appendText(summary.total ? 'Every feature passes.' : 'The checklist is empty.');
  item.tooltip = tooltip;
  item.command = { command: COMMANDS.openFeature, title: 'Open features.json', arguments: [checklist.store.folder.uri, next?.id] };
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
      ? { command: COMMANDS.openFeature, title: 'Open features.json', arguments: [node.checklist.store.folder.uri] }
      : { command: COMMANDS.initialize, title: 'Initialize Project Memory', arguments: [{ folder: node.checklist.store.folder.uri }] };
  return item;
}

function featureItem(store: MemoryStore, feature: Feature): vscode.TreeItem {
  const item = new vscode.TreeItem(plainText(feature.description), feature.steps.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = `feature:${store.key}#${feature.id}`;
  item.description = `${feature.id} · ${feature.category}`;
  item.checkboxState = {
    state: feature.passes ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked,
    tooltip: feature.passes ? 'Passing: untick to mark it failing' : 'Tick when verified end-to-end',
    // A screen reader names the checkbox by its feature (its checked state says passing or not).
    accessibilityInformation: featureCheckboxAccessibility(feature),
  };
  const tooltip = new vscode.MarkdownString(undefined, false);
  tooltip.appendMarkdown(`**${feature.id}** (${feature.category}): ${feature.passes ? 'passing' : 'not passing yet'}\n\n`);
  appendInlineMarkdown(tooltip, feature.description);
  if (feature.steps.length) {
    tooltip.appendMarkdown('\n\n**Steps**\n');
    feature.steps.forEach((step, i) => appendInlineMarkdown(tooltip.appendMarkdown(`\n${i + 1}. `), step));
  }
  item.tooltip = tooltip;
  item.command = { command: COMMANDS.openFeature, title: 'Open in features.json', arguments: [store.folder.uri, feature.id] };
  item.contextValue = feature.passes ? 'feature.passing' : 'feature.failing';
  return item;
}

/** The name of a feature's checkbox: its id and description ("F002: complete marks a todo done"). */
export function featureCheckboxAccessibility(feature: Pick<Feature, 'id' | 'description'>): vscode.AccessibilityInformation {
  return { label: `${feature.id}: ${plainText(feature.description)}`, role: 'checkbox' };
}

function stepItem(node: Extract<FeatureNode, { kind: 'step' }>): vscode.TreeItem {
  const item = new vscode.TreeItem(`${node.index + 1}. ${plainText(node.step)}`, vscode.TreeItemCollapsibleState.None);
  item.id = `step:${node.store.key}#${node.feature.id}#${node.index}`;
  item.tooltip = appendInlineMarkdown(new vscode.MarkdownString(), node.step);
  item.contextValue = 'featureStep';
  return item;
}

/** Text as text (escaped), code spans as markdown code: the tooltip shows `code` as code, not backticks. */
function appendInlineMarkdown(markdown: vscode.MarkdownString, text: string): vscode.MarkdownString {
  for (const part of inlineCodeParts(text)) {
    if (part.code) markdown.appendMarkdown(markdownCode(part.text));
    else markdown.appendText(part.text);
  }
  return markdown;
}
