import * as vscode from 'vscode';
import { parseSettings, SETTING_KEYS, USER_ONLY_KEYS, type Reader, type SettingKey, type SettingProblem, type SettingsChange, type SettingsSnapshot } from './settingsParse';

export * from './settingsParse';

/** The `claudeMemory.*` configuration, read here and nowhere else. */
export const SETTINGS_SECTION = 'claudeMemory';

/** `claudeMemory.expiry.days`, read by layer (settings key `expiryDays`). */
const EXPIRY_DAYS_KEY = 'expiry.days';

/**
 * Typed, validated settings with a change event that fires only for keys whose effective value
 * changed (VS Code's own event also fires for edits that change nothing).
 */
export class Settings implements vscode.Disposable {
  private snapshot: SettingsSnapshot;
  private readonly emitter = new vscode.EventEmitter<SettingsChange>();
  private readonly subscription: vscode.Disposable;
  readonly onDidChange = this.emitter.event;

  constructor(private readonly onProblem: (problem: SettingProblem) => void = () => undefined) {
    this.snapshot = this.read();
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SETTINGS_SECTION)) this.reload();
    });
  }

  get current(): Readonly<SettingsSnapshot> {
    return this.snapshot;
  }

  get<K extends SettingKey>(key: K): SettingsSnapshot[K] {
    return this.snapshot[key];
  }

  /** Re-reads the configuration; fires onDidChange when an effective value changed. */
  reload(): void {
    const previous = this.snapshot;
    this.snapshot = this.read();
    const keys = SETTING_KEYS.filter((k) => previous[k] !== this.snapshot[k]);
    if (keys.length > 0) this.emitter.fire({ keys, affects: (k) => keys.includes(k) });
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }

  private read(): SettingsSnapshot {
    const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
    const get: Reader = (key) => config.get(key);
    // apiBaseUrl is machine-scoped in package.json; read only the user/default layers as well, so
    // no workspace or folder file can send the API key to another server.
    const baseUrl = config.inspect<string>('apiBaseUrl');
    // History's switch and limits: user settings only, so a cloned repository cannot make the
    // agent's writes unreviewable by turning history off or shrinking it.
    const userOnly: Reader = (key) => {
      const name = (USER_ONLY_KEYS as Partial<Record<string, string>>)[key];
      return name === undefined ? undefined : config.inspect<never>(name)?.globalValue;
    };
    const expiry = config.inspect<unknown>(EXPIRY_DAYS_KEY);
    const expiryLayers = { user: expiry?.globalValue, workspace: [expiry?.workspaceValue, expiry?.workspaceFolderValue] };
    const snapshot = parseSettings(get, baseUrl?.globalValue ?? baseUrl?.defaultValue, this.onProblem, expiryLayers, userOnly);
    // A workspace may make edits stricter ('ask'), never looser: a cloned repository's settings
    // cannot turn off the review a user asked for in their own settings.
    if (config.inspect<unknown>('edits')?.globalValue === 'ask') snapshot.edits = 'ask';
    return snapshot;
  }
}
