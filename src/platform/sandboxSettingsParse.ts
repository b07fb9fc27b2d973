/** The sandbox settings (user settings only) and the host patterns they accept. */
import { trustedValue, type SettingLayers } from './settingTrust';

/** A host pattern of `sandbox.allowedDomains` / `run --allow-domain`: `example.com`, `*.example.com`, optionally `:port`; IP literals too. */
export function isDomainPattern(text: string): boolean {
  return /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i.test(text);
}

/** The sandbox settings (user settings only; the sandbox reads them through sandboxSettings()). */
export interface SandboxSettings {
  /** `off`: commands run without the OS sandbox (the rules alone decide). */
  mode: 'on' | 'off';
  allowedDomains: string[];
  autoAllow: boolean;
}

/** The sandbox settings from a layered reader (user values only, by SETTING_TRUST). */
export function parseSandboxSettings(read: (name: 'sandbox' | 'sandbox.allowedDomains' | 'sandbox.autoAllow') => SettingLayers): SandboxSettings {
  const mode = trustedValue('sandbox', read('sandbox'));
  const domains = trustedValue('sandbox.allowedDomains', read('sandbox.allowedDomains'));
  return {
    mode: mode === 'off' ? 'off' : 'on',
    allowedDomains: Array.isArray(domains)
      ? domains.filter((d): d is string => typeof d === 'string' && isDomainPattern(d.trim())).map((d) => d.trim().toLowerCase())
      : [],
    autoAllow: trustedValue('sandbox.autoAllow', read('sandbox.autoAllow')) === true,
  };
}
