/**
 * Claude: Manage Command Rules (palette, and the link on a command's approval card): lists the
 * "Always allow" rules of this workspace and the domains the user allowed sandboxed commands to
 * reach, each with a Remove button. Removing takes effect for the next command.
 */
import * as vscode from 'vscode';
import { COMMANDS, STATE_KEYS } from '../../platform/ids';
import { sandboxSettings, SETTINGS_SECTION } from '../../platform/settings';

interface RuleItem extends vscode.QuickPickItem {
  kind?: vscode.QuickPickItemKind;
  remove?: () => Thenable<void>;
}

const REMOVE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Remove' };

export function registerManageCommandRules(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.commands.registerCommand(COMMANDS.manageCommandRules, () => manageCommandRules(context.workspaceState)));
}

function items(memento: vscode.Memento): RuleItem[] {
  const rules = (memento.get<unknown>(STATE_KEYS.alwaysAllowedCommands) ?? []) as unknown[];
  const commands = rules.filter((r): r is string => typeof r === 'string');
  const domains = sandboxSettings().allowedDomains;
  const out: RuleItem[] = [{ label: 'Always allowed in this workspace', kind: vscode.QuickPickItemKind.Separator }];
  if (commands.length === 0) out.push({ label: '$(info) No command rules yet', description: '"Always allow" on an approval card adds one' });
  for (const rule of commands) {
    out.push({
      label: `$(terminal) ${rule}`,
      description: 'runs without asking, with its arguments',
      buttons: [REMOVE],
      remove: () => memento.update(STATE_KEYS.alwaysAllowedCommands, commands.filter((r) => r !== rule)),
    });
  }
  out.push({ label: 'Domains commands may reach (your user settings)', kind: vscode.QuickPickItemKind.Separator });
  if (domains.length === 0) out.push({ label: '$(info) No allowed domains', description: 'add them in your user settings (sandbox.allowedDomains)' });
  for (const domain of domains) {
    out.push({
      label: `$(globe) ${domain}`,
      buttons: [REMOVE],
      remove: () =>
        vscode.workspace
          .getConfiguration(SETTINGS_SECTION)
          .update('sandbox.allowedDomains', domains.filter((d) => d !== domain), vscode.ConfigurationTarget.Global),
    });
  }
  return out;
}

export async function manageCommandRules(memento: vscode.Memento): Promise<void> {
  const pick = vscode.window.createQuickPick<RuleItem>();
  pick.title = 'Claude: Command Rules';
  pick.placeholder = 'Remove a rule with its trash button (or select it and press Enter)';
  pick.items = items(memento);
  const remove = async (item: RuleItem | undefined) => {
    if (!item?.remove) return;
    await item.remove();
    pick.items = items(memento);
  };
  await new Promise<void>((resolve) => {
    pick.onDidTriggerItemButton((e) => void remove(e.item));
    pick.onDidAccept(() => void remove(pick.selectedItems[0]));
    pick.onDidHide(() => {
      pick.dispose();
      resolve();
    });
    pick.show();
  });
}
