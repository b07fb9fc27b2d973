import * as vscode from 'vscode';
import { MemoryEngine } from '../core/memory/engine';
import { ApiKeyStore } from './apiKeyStore';
import { componentLogger, createLogChannel } from './logger';
import { MemoryActivity } from './memoryActivity';
import { StoreChanges } from './storeChanges';
import { MemoryStores } from './memoryStores';
import type { ExtensionServices } from './services';
import { Settings, SETTINGS_SECTION } from './settings';
import { WorkspaceTrust } from './trust';

/** Builds the shared services; everything disposable is registered on the context. */
export function createServices(context: vscode.ExtensionContext): ExtensionServices {
  const log = createLogChannel();
  const logger = (component: string) => componentLogger(log, component);
  const settingsLog = logger('settings');
  const settings = new Settings((p) => settingsLog.warn(`${SETTINGS_SECTION}.${p.key}: ${p.reason}`));
  const trust = new WorkspaceTrust();
  const apiKey = new ApiKeyStore(context.secrets);
  // Agent writes need a trusted workspace: enforced here, below the engine, whatever the caller.
  const stores = new MemoryStores(settings, (fs, options) => new MemoryEngine(fs, options), () => trust.isTrusted(), logger('stores'));
  const storeChanges = new StoreChanges(stores);
  const memoryActivity = new MemoryActivity();
  context.subscriptions.push(log, settings, apiKey, stores, storeChanges, memoryActivity);
  return { log, logger, settings, apiKey, stores, storeChanges, memoryActivity, trust };
}
