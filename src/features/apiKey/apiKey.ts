import * as vscode from 'vscode';
import { invalidApiKeyReason } from '../../platform/apiKeyStore';
import type { ExtensionServices } from '../../platform/services';
import type { UserPrompts } from '../../ui/prompts';

/** Asks for the key in a password box and keeps it in SecretStorage. Resolves to true when stored. */
export async function setApiKey(services: ExtensionServices, prompts: UserPrompts): Promise<boolean> {
  const key = await prompts.inputBox({
    title: 'Anthropic API Key',
    prompt: 'Kept in VS Code secret storage on this machine; never written to settings or logs.',
    placeHolder: 'sk-ant-…',
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => {
      const reason = invalidApiKeyReason(value);
      return reason ? `The key ${reason}.` : undefined;
    },
  });
  if (key === undefined) return false;
  try {
    await services.apiKey.set(key);
  } catch (e) {
    void vscode.window.showErrorMessage((e as Error).message);
    return false;
  }
  services.logger('apiKey').info('API key stored in secret storage');
  void vscode.window.showInformationMessage('Claude Memory: API key stored.');
  return true;
}

export async function clearApiKey(services: ExtensionServices): Promise<void> {
  await services.apiKey.clear();
  const fallback = await services.apiKey.getWithSource();
  services.logger('apiKey').info(`API key removed from secret storage${fallback ? '; the environment key remains in use' : ''}`);
  void vscode.window.showInformationMessage(
    fallback
      ? 'Claude Memory: stored API key removed. ANTHROPIC_API_KEY from the environment is still used.'
      : 'Claude Memory: stored API key removed.',
  );
}
