/**
 * Claude Memory: Manage Command Rules (palette, and the link on a command's approval card): every
 * rule that decides whether a command runs without asking, each with its source: this
 * workspace's "Always allow" rules, the user settings' allow and deny lists, this chat's
 * "Allow sandboxed commands" grant (and the user setting that does the same everywhere), the
 * read-only defaults, and the domains sandboxed commands may reach.
 *
 * Nothing changes on Enter alone: Enter on a rule opens what can be done with it (Remove, Open in
 * Settings, Back), and the trash button removes it; every removal has an Undo on its toast. "Add a
 * Rule…" asks for a prefix (parsed with the bash parser, like every rule) and where it goes. A
 * change takes effect for the next command.
 */
import * as vscode from 'vscode';
import { DEFAULT_ALLOWED_COMMANDS, ruleWords } from '../../core/workspace/commandRules';
import { isInterpreter, NEVER_ALWAYS, normalName } from '../../core/workspace/ruleOffers';
import { loadShellParser } from '../../core/workspace/shellCommands';
import { COMMANDS } from '../../platform/ids';
import { sandboxSettings, SETTINGS_SECTION } from '../../platform/settings';
import { alwaysAllowed, setAllowedDomains, setAlwaysAllowed, setUserCommandRules, userCommandRules } from '../../platform/workspaceTools';

/** This chat's "Allow sandboxed commands" grant (ChatController.sandboxGrant). */
export interface SandboxGrant {
  granted(): boolean;
  revoke(): void;
  /** Gives it again (Undo of a removal). */
  give(): void;
}

/** Where a rule lives: its words on the list, and how it is removed and put back. */
interface RuleSource {
  /** The separator's words (short: VS Code draws them beside the group's first row). */
  readonly group: string;
  /** Where the rule lives, in full (the actions' placeholder, the toasts). */
  readonly title: string;
  /** What one of its rules does, for an item's description. */
  readonly does: string;
  /** The setting to open ("Open in Settings"), if it is one. */
  readonly setting?: string;
  read(): string[];
  write(rules: readonly string[]): Thenable<void>;
}

/** Something on the list that can be removed (with Undo): a rule of a source, or this chat's grant. */
interface Removable {
  /** The rule as written, or the grant's name. */
  name: string;
  /** Where it lives and what it does, for the sub-picker. */
  where: string;
  does: string;
  setting?: string;
  /** Removes it; resolves once done, and offers Undo on a toast (refresh redraws the list). */
  remove(refresh: () => void): Promise<void>;
}

interface RuleItem extends vscode.QuickPickItem {
  removable?: Removable;
  /** What Enter does on an item that is not removable (Add a Rule…, a setting). */
  run?: () => Promise<void>;
}

const REMOVE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Remove (with Undo)' };
const SETTINGS: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('settings-gear'), tooltip: 'Open in Settings' };
const TITLE = 'Claude Memory: Command Rules';

export function registerManageCommandRules(context: vscode.ExtensionContext, grant: SandboxGrant): void {
  context.subscriptions.push(vscode.commands.registerCommand(COMMANDS.manageCommandRules, () => manageCommandRules(context.workspaceState, grant)));
}

function sources(memento: vscode.Memento): { workspace: RuleSource; allow: RuleSource; deny: RuleSource; domains: RuleSource } {
  return {
    workspace: {
      group: 'This workspace',
      title: 'Always allowed in this workspace (your "Always allow" clicks)',
      does: 'runs without asking, with any arguments',
      read: () => alwaysAllowed(memento),
      write: (rules) => setAlwaysAllowed(memento, rules),
    },
    allow: {
      group: 'User settings: allow',
      title: `Allowed everywhere (your user settings: ${SETTINGS_SECTION}.commands.allow)`,
      does: 'runs without asking, with any arguments',
      setting: `${SETTINGS_SECTION}.commands.allow`,
      read: () => userCommandRules().allow,
      write: (rules) => setUserCommandRules('allow', rules),
    },
    deny: {
      group: 'User settings: deny',
      title: `Denied everywhere (your user settings: ${SETTINGS_SECTION}.commands.deny)`,
      does: 'never runs; deny wins over every allow rule',
      setting: `${SETTINGS_SECTION}.commands.deny`,
      read: () => userCommandRules().deny,
      write: (rules) => setUserCommandRules('deny', rules),
    },
    domains: {
      group: 'User settings: hosts',
      title: `Hosts sandboxed commands may reach (your user settings: ${SETTINGS_SECTION}.sandbox.allowedDomains)`,
      does: 'reached without asking',
      setting: `${SETTINGS_SECTION}.sandbox.allowedDomains`,
      read: () => [...sandboxSettings().allowedDomains],
      write: (domains) => setAllowedDomains(domains),
    },
  };
}

function separator(label: string): RuleItem {
  return { label, kind: vscode.QuickPickItemKind.Separator };
}

function items(memento: vscode.Memento, grant: SandboxGrant, add: () => Promise<void>): RuleItem[] {
  const all = sources(memento);
  const out: RuleItem[] = [{ label: '$(add) Add a Rule…', description: 'a command prefix to allow or deny', alwaysShow: true, run: add }];
  const list = (source: RuleSource, iconName: string, empty: RuleItem): void => {
    out.push(separator(source.group));
    const rules = source.read();
    if (rules.length === 0) out.push(empty);
    for (const value of rules) {
      const removable: Removable = {
        name: value,
        where: source.title,
        does: source.does,
        ...(source.setting ? { setting: source.setting } : {}),
        remove: (refresh) => removeRule(source, value, refresh),
      };
      out.push({ label: `$(${iconName}) ${value}`, description: source.does, buttons: source.setting ? [REMOVE, SETTINGS] : [REMOVE], removable });
    }
  };
  list(all.workspace, 'terminal', { label: '$(info) None yet', description: '"Always allow" on a card adds one' });
  list(all.allow, 'check', { label: '$(info) None allowed everywhere', description: `${SETTINGS_SECTION}.commands.allow` });
  list(all.deny, 'circle-slash', { label: '$(info) None denied', description: `${SETTINGS_SECTION}.commands.deny` });

  out.push(separator('This chat'));
  if (grant.granted()) {
    const name = 'Sandboxed commands run without asking';
    out.push({
      label: `$(shield) ${name}`,
      description: '"Allow sandboxed commands in this chat" (until New Chat)',
      buttons: [REMOVE],
      removable: {
        name,
        where: 'this chat',
        does: 'every command Claude runs in the sandbox, without asking; deny rules still apply',
        remove: async (refresh) => {
          grant.revoke();
          refresh();
          void vscode.window.showInformationMessage('Sandboxed commands ask again in this chat.', 'Undo').then((choice) => {
            if (choice !== 'Undo') return;
            grant.give();
            refresh();
          });
        },
      },
    });
  } else {
    out.push({ label: '$(info) Nothing granted in this chat', description: 'a card can allow sandboxed commands' });
  }
  if (sandboxSettings().autoAllow) {
    out.push({
      label: '$(shield) Every sandboxed command runs without asking',
      description: `your user setting ${SETTINGS_SECTION}.sandbox.autoAllow`,
      buttons: [SETTINGS],
      run: () => openSetting(`${SETTINGS_SECTION}.sandbox.autoAllow`),
    });
  }

  out.push(separator('Built in'));
  out.push({
    label: `$(lock) ${DEFAULT_ALLOWED_COMMANDS.length} read-only commands`,
    description: 'run read-only; cannot be removed',
    detail: DEFAULT_ALLOWED_COMMANDS.join(', '),
  });

  list(all.domains, 'globe', { label: '$(info) No hosts', description: `${SETTINGS_SECTION}.sandbox.allowedDomains` });
  return out;
}

export async function manageCommandRules(memento: vscode.Memento, grant: SandboxGrant): Promise<void> {
  const pick = vscode.window.createQuickPick<RuleItem>();
  /** The rule whose actions the picker shows (Enter on it), or undefined for the list. */
  let opened: Removable | undefined;
  let lastActive: string | undefined;
  const add = async (): Promise<void> => {
    pick.hide();
    await addRule(memento);
  };
  const showList = (): void => {
    opened = undefined;
    pick.title = TITLE;
    pick.placeholder = 'Enter: what to do with a rule · trash: remove it (with Undo)';
    pick.buttons = [];
    pick.value = '';
    pick.items = items(memento, grant, add);
    const again = pick.items.find((i) => i.label === lastActive);
    if (again) pick.activeItems = [again];
  };
  let closed = false;
  // An Undo clicked after the picker closed changes the rules; there is no list to redraw then.
  const refresh = (): void => {
    if (!closed && opened === undefined) showList();
  };
  // Enter on a rule: what can be done with it, in the same picker; the first choice, the one
  // Enter takes, changes nothing.
  const back: RuleItem = { label: '$(arrow-left) Back to the rules' };
  const showActions = (entry: Removable): void => {
    opened = entry;
    lastActive = pick.activeItems[0]?.label;
    pick.title = `${TITLE}: ${entry.name}`;
    pick.placeholder = `${entry.where}: ${entry.does}`;
    pick.buttons = [vscode.QuickInputButtons.Back];
    pick.value = '';
    pick.items = [
      back,
      { label: `$(trash) Remove "${entry.name}"`, description: 'with Undo', run: () => entry.remove(refresh) },
      ...(entry.setting ? [{ label: '$(settings-gear) Open in Settings', description: entry.setting, run: () => (pick.hide(), openSetting(entry.setting!)) }] : []),
    ];
    pick.activeItems = [back];
  };
  pick.matchOnDescription = true;
  showList();
  await new Promise<void>((resolve) => {
    let busy = false;
    const act = async (item: RuleItem | undefined, button?: vscode.QuickInputButton): Promise<void> => {
      if (!item || busy) return;
      busy = true;
      try {
        if (button === SETTINGS) {
          pick.hide();
          await openSetting(item.removable?.setting ?? `${SETTINGS_SECTION}.sandbox.autoAllow`);
        } else if (button === REMOVE && item.removable) {
          await item.removable.remove(refresh);
        } else if (opened !== undefined) {
          const run = item.run;
          showList();
          await run?.();
        } else if (item.removable) {
          showActions(item.removable);
        } else if (item.run) {
          await item.run();
          refresh();
        }
      } finally {
        busy = false;
      }
    };
    pick.onDidTriggerButton((button) => {
      if (button === vscode.QuickInputButtons.Back) showList();
    });
    pick.onDidTriggerItemButton((e) => void act(e.item, e.button));
    pick.onDidAccept(() => void act(pick.selectedItems[0] ?? pick.activeItems[0]));
    pick.onDidHide(() => {
      closed = true;
      pick.dispose();
      resolve();
    });
    pick.show();
  });
}

/** Removes `value` from `source`, then offers Undo on a toast (the rule goes back where it was). */
async function removeRule(source: RuleSource, value: string, refresh: () => void): Promise<void> {
  const before = source.read();
  if (!before.includes(value)) return;
  await source.write(before.filter((r) => r !== value));
  refresh();
  void vscode.window.showInformationMessage(`Removed "${value}" (${source.title}).`, 'Undo').then(async (choice) => {
    if (choice !== 'Undo') return;
    const now = source.read();
    if (now.includes(value)) return;
    const at = Math.min(before.indexOf(value), now.length);
    await source.write([...now.slice(0, at), value, ...now.slice(at)]);
    refresh();
    void vscode.window.showInformationMessage(`"${value}" is back (${source.title}).`);
  });
}

/** Add a Rule…: the prefix (a rule is parsed like a command), then allow here, allow everywhere or deny everywhere. */
async function addRule(memento: vscode.Memento): Promise<void> {
  const parser = await loadShellParser();
  const value = await vscode.window.showInputBox({
    title: `${TITLE}: Add a Rule`,
    prompt: 'A command prefix in shell words: `npm test` covers `npm test -- --grep x`, not `npm testx`.',
    placeHolder: 'e.g. npm test, node scripts/check.js, git commit',
    validateInput: (text) => {
      const rule = text.trim();
      if (rule === '') return undefined;
      if (ruleWords(parser, rule).length === 0) return 'Not a simple command prefix: no variables, redirections, pipes or several commands.';
      const words = rule.split(/\s+/);
      if (rule === '*') return { message: '"*" lets every command run without asking (deny rules still apply).', severity: vscode.InputBoxValidationSeverity.Warning };
      if (words.length === 1 && isInterpreter(words[0])) {
        return { message: `"${rule}" alone allows any program ${rule} runs; name the script too (e.g. ${rule} src/cli.js).`, severity: vscode.InputBoxValidationSeverity.Warning };
      }
      if (NEVER_ALWAYS.includes(normalName(words[0])) || NEVER_ALWAYS.includes(`${normalName(words[0])} ${words[1] ?? ''}`)) {
        return { message: `"${rule}" deletes, moves, sends data or runs other programs: better as a deny rule.`, severity: vscode.InputBoxValidationSeverity.Warning };
      }
      return undefined;
    },
  });
  const rule = value?.trim();
  if (!rule || ruleWords(parser, rule).length === 0) return;
  const all = sources(memento);
  const where = await vscode.window.showQuickPick(
    [
      { label: '$(terminal) Allow in this workspace', description: 'like "Always allow" on a card', source: all.workspace },
      { label: '$(check) Allow everywhere', description: `your user settings: ${SETTINGS_SECTION}.commands.allow`, source: all.allow },
      { label: '$(circle-slash) Deny everywhere', description: `your user settings: ${SETTINGS_SECTION}.commands.deny`, source: all.deny },
    ],
    { title: `${TITLE}: "${rule}"`, placeHolder: 'Where does the rule go?' },
  );
  if (!where) return;
  const rules = where.source.read();
  if (!rules.includes(rule)) await where.source.write([...rules, rule]);
  void vscode.window.showInformationMessage(`Added "${rule}" (${where.source.title}).`);
}

function openSetting(setting: string): Promise<void> {
  return Promise.resolve(vscode.commands.executeCommand('workbench.action.openSettings', setting)).then(() => undefined);
}
