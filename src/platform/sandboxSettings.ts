/**
 * The sandbox's settings, from the user's own settings only (`inspect().globalValue`; they are
 * application-scoped in package.json too): a cloned repository can neither turn the sandbox off,
 * nor allow a domain, nor let commands run without asking.
 */
import * as vscode from 'vscode';

export interface SandboxSettings {
  /** `auto`: sandbox commands where the OS can; `off`: never. */
  mode: 'auto' | 'off';
  /** Hosts commands may reach (`example.com`, `*.example.com`, `host:port`). */
  allowedDomains: string[];
  /** Commands no rule allows run without asking, inside the sandbox. */
  autoAllow: boolean;
}

export const SANDBOX_SETTING_KEYS = { mode: 'sandbox', allowedDomains: 'sandbox.allowedDomains', autoAllow: 'sandbox.autoAllow' } as const;

/** Reads the three settings from `config` (the `claudeMemory` section), user layer only. */
export function readSandboxSettings(config: vscode.WorkspaceConfiguration): SandboxSettings {
  const mode = config.inspect<unknown>(SANDBOX_SETTING_KEYS.mode)?.globalValue;
  const domains = config.inspect<unknown>(SANDBOX_SETTING_KEYS.allowedDomains)?.globalValue;
  return {
    mode: mode === 'off' ? 'off' : 'auto',
    allowedDomains: Array.isArray(domains)
      ? domains.filter((d): d is string => typeof d === 'string' && isDomainPattern(d.trim())).map((d) => d.trim().toLowerCase())
      : [],
    autoAllow: config.inspect<unknown>(SANDBOX_SETTING_KEYS.autoAllow)?.globalValue === true,
  };
}

/** `example.com`, `*.example.com`, optionally `:port`; IP literals too. */
export function isDomainPattern(text: string): boolean {
  return /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i.test(text);
}
